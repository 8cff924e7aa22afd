import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthType } from '../../../protocol/user.ts';
import { Button } from '../../components/Button.tsx';
import { checkCode } from '../../components/form/authValidation.ts';
import type { AuthErrorKey } from '../../components/form/authValidation.ts';
import { errorText } from '../../components/form/errorText.ts';
import { FormField } from '../../components/form/FormField.tsx';
import { SendCodeButton } from '../../components/form/SendCodeButton.tsx';
import { useCountdown } from '../../components/form/useCountdown.ts';

export interface SecurityStepProps {
  authType: AuthType;
  /** The email the code goes to (shown in the hint). */
  email: string;
  /** The core is sending the mail code (`securityStep.sendingCode`). */
  sending: boolean;
  /** A code was mailed in this step (the hint says so only then; issue 26). */
  codeSent: boolean;
  /** The core is verifying the code (`loggingIn`). */
  submitting: boolean;
  /** Last server message of a failed call. */
  serverError: string | null;
  onSendCode: () => void;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}

/**
 * Step two of login (SPEC §2): a six-digit email code (with Send code and a 60 s countdown)
 * or a Google authenticator code, depending on `authType`. The countdown starts when a send
 * finishes without an error, so a failed send can be retried at once.
 */
export function SecurityStep(props: SecurityStepProps) {
  const { authType, email, sending, codeSent, submitting, serverError, onSendCode, onSubmit, onCancel } = props;
  const { t } = useTranslation('auth');
  const [code, setCode] = useState('');
  const [error, setError] = useState<AuthErrorKey | null>(null);
  const { remaining, start } = useCountdown();
  const wasSending = useRef(sending);

  useEffect(() => {
    if (wasSending.current && !sending && serverError === null) start();
    wasSending.current = sending;
  }, [sending, serverError, start]);

  const submit = () => {
    const err = checkCode(code);
    setError(err);
    if (err === null) onSubmit(code.trim());
  };

  const isEmail = authType === 'email';
  return (
    <form className="auth-form" onSubmit={(e) => e.preventDefault()} noValidate aria-label={t('securityTitle')}>
      <h1 className="auth-title">{t('securityTitle')}</h1>
      <p className="auth-subtitle" data-testid="security-hint">
        {isEmail ? t(codeSent ? 'securityEmailHint' : 'securityEmailSendHint', { email }) : t('securityGoogleHint')}
      </p>
      <FormField
        label={isEmail ? t('code') : t('googleCode')}
        value={code}
        onValueChange={(v) => setCode(v.replace(/\D/g, '').slice(0, 6))}
        placeholder={t('codePlaceholder')}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus
        error={error ? errorText(t, error) : undefined}
        suffix={
          isEmail ? <SendCodeButton remaining={remaining} pending={sending} onSend={onSendCode} /> : undefined
        }
      />
      {serverError ? (
        <p className="auth-server-error" role="alert">
          {serverError}
        </p>
      ) : null}
      <Button type="submit" variant="primary" block pending={submitting} onClick={submit}>
        {t('confirm')}
      </Button>
      <button type="button" className="auth-link auth-center" onClick={onCancel}>
        {t('cancel')}
      </button>
    </form>
  );
}
