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
 *
 * The second click of a double click (`detail` ≥ 2: the browser counts clicks at one place
 * within its double-click time, whatever element is under the pointer) never starts an action
 * either: the 450 ms guard belongs to one button, and a result view can put a NEW button where
 * the one clicked was (Convert → "Convert again" when the server answers between the two
 * clicks), which the second click would otherwise press. Keyboard clicks have `detail` 0.
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
      onClick={(e) => {
        if (e.detail > 1) return;
        run();
      }}
    >
      {pending && <Spinner size={14} />}
      {children}
    </button>
  );
}
