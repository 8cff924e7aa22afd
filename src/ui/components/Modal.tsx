import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
}

/**
 * A centred dialog rendered in a portal. Escape and a click on the backdrop close it; the
 * body does not scroll while it is open. Renders nothing when closed.
 */
export function Modal({ open, onClose, title, children, footer, width = 440 }: ModalProps) {
  const titleId = useId();
  useEscape(open, onClose);
  if (!open) return null;
  return createPortal(
    <div className="rf-overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="rf-modal" role="dialog" aria-modal="true" aria-labelledby={title ? titleId : undefined} style={{ width }}>
        {title != null && (
          <header className="rf-modal__head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="rf-icon-btn" aria-label="close" onClick={onClose}>
              ×
            </button>
          </header>
        )}
        <div className="rf-modal__body">{children}</div>
        {footer != null && <footer className="rf-modal__foot">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}

/** Closes on Escape and locks body scroll while `active`. */
export function useEscape(active: boolean, onClose: () => void): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    const prev = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.style.overflow = prev;
      window.removeEventListener('keydown', onKey);
    };
  }, [active, onClose]);
}
