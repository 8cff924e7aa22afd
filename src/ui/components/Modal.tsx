import { useId, useRef, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title?: ReactNode;
  /** Accessible name when there is no visible title. */
  label?: string;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
}

/**
 * Focus goes back to what opened a dialog. Radix does that only for its own Dialog.Trigger; our
 * dialogs are opened by state, so the element focused when the dialog opens (the button pressed)
 * is kept and focused again when it closes, if it is still on the page.
 */
export function useReturnFocus(): { onOpenAutoFocus: () => void; onCloseAutoFocus: (e: Event) => void } {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (e) => {
      const el = opener.current;
      opener.current = null;
      if (el?.isConnected) {
        e.preventDefault();
        el.focus();
      }
    },
  };
}

/**
 * A centred modal dialog on Radix Dialog (a well-kept primitive rather than a hand-rolled trap):
 * focus moves into it on open, Tab stays inside, Escape or a press on the backdrop closes it,
 * focus returns to what opened it, the page behind is inert to screen readers and does not
 * scroll. Renders nothing when closed. The content sits inside the overlay (Radix's scrollable
 * overlay layout), so a dialog taller than a phone screen scrolls.
 */
export function Modal({ open, onClose, title, label, children, footer, width = 440 }: ModalProps) {
  const titleId = useId();
  const focus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="rf-overlay">
          <Dialog.Content className="rf-modal" aria-describedby={undefined} aria-labelledby={titleId} style={{ width }} {...focus}>
            {title != null ? (
              <header className="rf-modal__head">
                <Dialog.Title asChild>
                  <h2 id={titleId}>{title}</h2>
                </Dialog.Title>
                <Dialog.Close className="rf-icon-btn" aria-label="close">
                  ×
                </Dialog.Close>
              </header>
            ) : (
              <Dialog.Title id={titleId} className="rf-sr-only">
                {label ?? ''}
              </Dialog.Title>
            )}
            <div className="rf-modal__body">{children}</div>
            {footer != null && <footer className="rf-modal__foot">{footer}</footer>}
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
