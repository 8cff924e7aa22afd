import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../toast.ts';
import { errorMessage } from '../../../api/client.ts';
import type { MailCodePurpose } from '../../../protocol/user.ts';
import { Button } from '../Button.tsx';
import { checkCode, checkConfirm, checkEmail, checkNewPassword, checkPassword, collectErrors, hasErrors } from './authValidation.ts';
import type { AuthErrorKey, FieldErrors } from './authValidation.ts';
import { errorText } from './errorText.ts';
import { FormField } from './FormField.tsx';
import { SendCodeButton } from './SendCodeButton.tsx';
import { useMailCode } from './useMailCode.ts';
import './auth.css';

/** What the user typed (`email`/`code` with a mail code, `oldPassword` without). */
export interface PasswordFormValues {
  email: string;
  code: string;
  oldPassword: string;
  password: string;
  confirm: string;
}

type Field = keyof PasswordFormValues;

export interface PasswordCodeFormProps {
  /** The form's accessible name. */
  label: string;
  /** Title, subtitle, notice: shown above the fields. */
  header?: ReactNode;
  /** Email + mailed code for this purpose (register, reset); without it, the current password (change password). */
  mailCode?: MailCodePurpose;
  labels: { oldPassword?: string; password: string; confirm: string; submit: string };
  /** Fields after the passwords (referral code, agreement). */
  extra?: ReactNode;
  /** The extra fields' own check, run with the field checks on submit; false stops the submit. */
  checkExtra?: () => boolean;
  /** Posts the form; resolves with the envelope whose `msg` is toasted. */
  send: (values: PasswordFormValues) => Promise<{ msg: string }>;
  /** After a successful send (navigate to login, refetch the user info). */
  onDone: (values: PasswordFormValues) => void;
  /** Empty the fields after a successful send (the form stays on screen). */
  clearOnDone?: boolean;
  /** Below the submit button (links). */
  footer?: ReactNode;
}

const EMPTY: PasswordFormValues = { email: '', code: '', oldPassword: '', password: '', confirm: '' };

/**
 * The password form with a mailed code (register, reset password) or with the current password
 * (change password): the fields, their SPEC §9 checks and messages, the Send code button with its
 * countdown, and the submit flow (pending button, the server msg toasted on success, the error
 * shown inline and toasted on failure). A submit that is not sent always shows why.
 */
export function PasswordCodeForm(props: PasswordCodeFormProps) {
  const { t } = useTranslation('auth');
  const { mailCode, labels } = props;
  const mail = useMailCode(mailCode ?? 'register');
  const [v, setV] = useState<PasswordFormValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const set = (field: Field) => (value: string) => setV((x) => ({ ...x, [field]: value }));
  const show = (k: AuthErrorKey | undefined) => (k ? errorText(t, k) : undefined);

  const sendCode = () => {
    const err = checkEmail(v.email);
    setErrors((e) => ({ ...e, email: err ?? undefined }));
    if (err === null) void mail.send(v.email);
  };

  const submit = async () => {
    const next = collectErrors<Field>(
      mailCode
        ? { email: checkEmail(v.email), code: checkCode(v.code), oldPassword: null, password: checkPassword(v.password), confirm: checkConfirm(v.password, v.confirm) }
        : { email: null, code: null, oldPassword: checkPassword(v.oldPassword), password: checkNewPassword(v.oldPassword, v.password), confirm: checkConfirm(v.password, v.confirm) },
    );
    setErrors(next);
    // The last server answer is about the last submit, not this one: it never stays next to new messages.
    setServerError(null);
    const extraOk = props.checkExtra ? props.checkExtra() : true;
    if (hasErrors(next) || !extraOk) return;
    setPending(true);
    setServerError(null);
    try {
      const env = await props.send(v);
      toast.success(env.msg);
      if (props.clearOnDone) setV(EMPTY);
      props.onDone(v);
    } catch (err) {
      const msg = errorMessage(err);
      setServerError(msg);
      toast.error(msg);
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={(e) => e.preventDefault()} noValidate aria-label={props.label}>
      {props.header}
      {mailCode ? (
        <>
          <FormField label={t('email')} type="email" autoComplete="email" placeholder={t('emailPlaceholder')}
            value={v.email} onValueChange={set('email')} error={show(errors.email)} />
          <FormField label={t('code')} inputMode="numeric" autoComplete="one-time-code" placeholder={t('codePlaceholder')}
            value={v.code} onValueChange={(x) => set('code')(x.replace(/\D/g, '').slice(0, 6))} error={show(errors.code)}
            suffix={<SendCodeButton remaining={mail.remaining} pending={mail.pending} onSend={sendCode} />} />
        </>
      ) : (
        <FormField label={labels.oldPassword ?? t('password')} type="password" autoComplete="current-password" placeholder={t('passwordPlaceholder')}
          value={v.oldPassword} onValueChange={set('oldPassword')} error={show(errors.oldPassword)} />
      )}
      <FormField label={labels.password} type="password" autoComplete="new-password" placeholder={t('passwordPlaceholder')}
        value={v.password} onValueChange={set('password')} error={show(errors.password)} />
      <FormField label={labels.confirm} type="password" autoComplete="new-password" placeholder={t('confirmPlaceholder')}
        value={v.confirm} onValueChange={set('confirm')} error={show(errors.confirm)} />
      {props.extra}
      {serverError ? <p className="auth-server-error" role="alert">{serverError}</p> : null}
      <Button type="submit" variant="primary" block pending={pending} onClick={submit}>
        {labels.submit}
      </Button>
      {props.footer}
    </form>
  );
}
