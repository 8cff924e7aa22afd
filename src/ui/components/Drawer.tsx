import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useReturnFocus } from './Modal.tsx';

export interface DrawerProps {
  open: boolean;
  onClose: () => void;
  side?: 'left' | 'right' | 'bottom';
  title?: ReactNode;
  label: string;
  children: ReactNode;
}

/**
 * A panel sliding from a screen edge (mobile menus, language picker, popups): a modal dialog on
 * Radix Dialog, so focus is kept inside while open and returned to the opener on close; Escape
 * and a press on the backdrop close it.
 */
export function Drawer({ open, onClose, side = 'right', title, label, children }: DrawerProps) {
  const focus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="rf-overlay rf-overlay--drawer">
          <Dialog.Content className={`rf-drawer rf-drawer--${side}`} aria-describedby={undefined} {...focus}>
            <Dialog.Title className="rf-sr-only">{label}</Dialog.Title>
            <header className="rf-drawer__head">
              <span>{title}</span>
              <Dialog.Close className="rf-icon-btn" aria-label="close">
                ×
              </Dialog.Close>
            </header>
            <div className="rf-drawer__body">{children}</div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
