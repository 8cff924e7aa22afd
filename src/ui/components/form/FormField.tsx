import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode } from 'react';

/** Props of {@link FormField}: a labelled input plus its inline validation message. */
export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Translated inline message; when set the input is marked `aria-invalid` and described by it. */
  error?: string | undefined;
  /** Rendered inside the input row, after the input (a Send code button, a show-password toggle). */
  suffix?: ReactNode;
}

/**
 * The text input of the auth and settings forms. The error text is linked with
 * `aria-describedby` so tests and screen readers find the message by the field's label.
 */
export function FormField({ label, value, onValueChange, error, suffix, id, ...input }: FormFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  return (
    <div className={`auth-field${error ? ' auth-field--invalid' : ''}`}>
      <label className="auth-field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="auth-field__row">
        <input
          {...input}
          id={inputId}
          className="auth-field__input"
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {suffix}
      </div>
      {error ? (
        <p className="auth-field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
