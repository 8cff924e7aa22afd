import { useTranslation } from 'react-i18next';
import { Button } from '../Button.tsx';

export interface SendCodeButtonProps {
  /** Seconds left of the resend countdown; 0 means the button is available. */
  remaining: number;
  /** A send request is in flight. */
  pending: boolean;
  onSend: () => void;
}

/** The Send code button inside a code field: disabled while sending and during the countdown. */
export function SendCodeButton({ remaining, pending, onSend }: SendCodeButtonProps) {
  const { t } = useTranslation('auth');
  return (
    <Button
      type="button"
      variant="text"
      className="auth-send-code"
      pending={pending}
      disabled={remaining > 0}
      onClick={onSend}
    >
      {remaining > 0 ? t('resendIn', { s: remaining }) : t('sendCode')}
    </Button>
  );
}
