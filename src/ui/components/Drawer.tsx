import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useEscape } from './Modal.tsx';

export interface DrawerProps {
  open: boolean;
  onClose: () => void;
  side?: 'left' | 'right' | 'bottom';
  title?: ReactNode;
  label: string;
  children: ReactNode;
}

/** A panel sliding from a screen edge (mobile menus, language picker, popups). */
export function Drawer({ open, onClose, side = 'right', title, label, children }: DrawerProps) {
  useEscape(open, onClose);
  if (!open) return null;
  return createPortal(
    <div className="rf-overlay rf-overlay--drawer" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside className={`rf-drawer rf-drawer--${side}`} role="dialog" aria-modal="true" aria-label={label}>
        <header className="rf-drawer__head">
          <span>{title}</span>
          <button type="button" className="rf-icon-btn" aria-label="close" onClick={onClose}>
            ×
          </button>
        </header>
        <div className="rf-drawer__body">{children}</div>
      </aside>
    </div>,
    document.body,
  );
}
