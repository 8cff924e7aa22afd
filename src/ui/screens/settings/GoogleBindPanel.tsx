import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import type { GoogleCodeResult } from '../../../protocol/user.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { checkCode } from '../../components/form/authValidation.ts';
import type { AuthErrorKey } from '../../components/form/authValidation.ts';
import { errorText } from '../../components/form/errorText.ts';
import { FormField } from '../../components/form/FormField.tsx';
import '../../components/form/auth.css';

export interface GoogleBindPanelProps {
  /** Called after the server accepted the code (the caller refetches user info). */
  onBound: () => void;
}

type Secret =
  | { status: 'loading' }
  | { status: 'error'; msg: string }
  | { status: 'ready'; secret: string; uri: string; qr: string };

/**
 * Google authenticator binding (SPEC §2, §7): GET /user/get-google-code gives a secret and its
 * otpauth URI; the URI is drawn as a QR code (qrcode → data URL) next to the secret with a copy
 * button; the user enters the six-digit code from the app and POST /user/bind-google-authen
 * checks it. The secret never leaves this component's state.
 */
export function GoogleBindPanel({ onBound }: GoogleBindPanelProps) {
  const { t } = useTranslation('settings');
  const { t: ta } = useTranslation('auth');
  const api = useApi();
  const [secret, setSecret] = useState<Secret>({ status: 'loading' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<AuthErrorKey | null>(null);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  useEffect(() => {
    // NOTE: no AbortSignal: the api client reports an aborted call as a network-error toast,
    // so a late answer is ignored instead of cancelled.
    let live = true;
    api
      .get<GoogleCodeResult>('/user/get-google-code')
      .then(async (r) => {
        const qr = await QRCode.toDataURL(r.uri, { margin: 1, width: 184 });
        if (live) setSecret({ status: 'ready', secret: r.secret, uri: r.uri, qr });
      })
      .catch((e: unknown) => {
        if (live) setSecret({ status: 'error', msg: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [api]);

  const submit = async () => {
    const err = checkCode(code);
    setError(err);
    if (err !== null) return;
    setPending(true);
    setServerError(null);
    try {
      const env = await api.request<unknown>({ method: 'POST', path: '/user/bind-google-authen', body: { code: code.trim() } });
      toast.success(env.msg);
      onBound();
    } catch (x) {
      const msg = errorMessage(x);
      setServerError(msg);
      toast.error(msg);
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="settings-card" aria-label={t('bindTitle')}>
      <h2 className="settings-card__title">{t('bindTitle')}</h2>
      <ol className="google-steps">
        <li>{t('bindStep1')}</li>
        <li>
          {t('bindStep2')}
          {secret.status === 'ready' ? (
            <div className="google-secret">
              <div className="google-secret__qr">
                <img src={secret.qr} alt={t('qrAlt')} width={184} height={184} />
              </div>
              <div className="google-secret__key">
                <span className="google-secret__label">{t('secretKey')}</span>
                <code className="google-secret__value" data-testid="google-secret">{secret.secret}</code>
                <CopyButton text={secret.secret} />
              </div>
            </div>
          ) : secret.status === 'error' ? (
            <p className="auth-server-error" role="alert">{secret.msg}</p>
          ) : (
            <p className="settings-muted">{t('loading')}</p>
          )}
        </li>
        <li>
          {t('bindStep3')}
          <form className="auth-form google-form" onSubmit={(e) => e.preventDefault()} noValidate>
            <FormField label={t('googleCode')} inputMode="numeric" autoComplete="one-time-code" placeholder={ta('codePlaceholder')}
              value={code} onValueChange={(v) => setCode(v.replace(/\D/g, '').slice(0, 6))}
              error={error ? errorText(ta, error) : undefined} />
            {serverError ? <p className="auth-server-error" role="alert">{serverError}</p> : null}
            <Button type="submit" variant="primary" pending={pending} onClick={submit} disabled={secret.status !== 'ready'}>
              {t('bindSubmit')}
            </Button>
          </form>
        </li>
      </ol>
    </section>
  );
}
