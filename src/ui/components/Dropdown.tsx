import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface DropdownProps {
  /** Content of the trigger button. */
  trigger: ReactNode;
  /** Accessible name of the trigger. */
  label: string;
  /** Menu content; receives `close` so items can dismiss the menu. */
  children: (close: () => void) => ReactNode;
  align?: 'left' | 'right';
  className?: string;
}

/**
 * A disclosure menu for the top bar: opens on hover (pointer devices) and on click/Enter
 * (keyboard, touch), closes on outside click, Escape or item selection.
 */
export function Dropdown({ trigger, label, children, align = 'left', className }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  // NOTE: with a mouse, mouseenter opens the menu just before the click lands; that click must
  // not toggle it shut again, so a hover-opened menu treats the first click as "keep open".
  const openedByHover = useRef(false);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const close = (): void => setOpen(false);
  return (
    <div
      ref={root}
      className={`rf-dropdown ${className ?? ''}`}
      onMouseEnter={() => {
        if (!open) openedByHover.current = true;
        setOpen(true);
      }}
      onMouseLeave={() => {
        openedByHover.current = false;
        setOpen(false);
      }}
    >
      <button
        type="button"
        className="rf-dropdown__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        onClick={() => {
          if (openedByHover.current) {
            openedByHover.current = false;
            setOpen(true);
          } else setOpen((o) => !o);
        }}
      >
        {trigger}
        <span className="rf-caret" aria-hidden="true" />
      </button>
      {open && (
        <div className={`rf-dropdown__menu rf-dropdown__menu--${align}`} role="menu">
          {children(close)}
        </div>
      )}
    </div>
  );
}
