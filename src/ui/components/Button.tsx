import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { CLICK_DEBOUNCE_MS, useDebouncedAction } from '../hooks/useDebouncedAction.ts';
import { Spinner } from './Spinner.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'text' | 'up' | 'down';

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md' | 'lg';
  block?: boolean;
  /** Returning a promise shows the pending state until it settles. */
  onClick?: () => unknown;
  /** Externally driven pending state (e.g. a machine's `pending` flag). */
  pending?: boolean;
  debounceMs?: number;
  children?: ReactNode;
}

/**
 * The app's button. Clicks are debounced on the leading edge (450 ms, SPEC §9) and ignored
 * while pending, so a double click never submits twice. While pending it is disabled,
 * `aria-busy` and shows a spinner.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  block = false,
  onClick,
  pending: pendingProp = false,
  debounceMs = CLICK_DEBOUNCE_MS,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  const { run, pending: ownPending } = useDebouncedAction(onClick, debounceMs);
  const pending = pendingProp || ownPending;
  const cls = ['rf-btn', `rf-btn--${variant}`, `rf-btn--${size}`, block ? 'rf-btn--block' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button
      {...rest}
      type={type}
      className={cls}
      disabled={disabled === true || pending}
      aria-busy={pending || undefined}
      onClick={() => run()}
    >
      {pending && <Spinner size={14} />}
      {children}
    </button>
  );
}
