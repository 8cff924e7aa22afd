import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppCore, useSession, useSessionSend } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { oneOf, useViewState } from '../../hooks/useViewState.ts';
import { checkEmail, checkPassword, collectErrors, hasErrors } from '../../components/form/authValidation.ts';
import type { FieldErrors } from '../../components/form/authValidation.ts';
import { AuthLayout } from '../../components/form/AuthLayout.tsx';
import { errorText } from '../../components/form/errorText.ts';
import { FormField } from '../../components/form/FormField.tsx';
import { QrLoginPanel } from './QrLoginPanel.tsx';
import { SecurityStep } from './SecurityStep.tsx';
import { safeRedirect } from './safeRedirect.ts';
import '../../components/form/auth.css';

type Field = 'email' | 'password';
const MODES = ['password', 'qr'] as const;
type Mode = (typeof MODES)[number];

/**
 * /login (SPEC §2, §4, §5). Step one checks the form on the client (inline SPEC §5
 * messages) and sends `user.checkAuthType`; the session machine answers with the security
 * step, rendered in place of the form. When the session reaches `loggedIn` the screen goes to
 * the `redirect` query param (same-origin paths only) or `/`. The success toast is the core's.
 * `?email=` prefills the email (register sends the user here with it).
 */
export function LoginScreen() {
  const { t } = useTranslation('auth');
  const core = useAppCore();
  const session = useSession();
  const send = useSessionSend();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  // The phone layout's tab (password / QR) is view state (issue 16): in the record, shown by a replay.
  const [mode, setMode] = useViewState<Mode>('login.tab', 'password', oneOf(MODES));

  const mobile = useDevice() === 'mobile';
  const status = session.status;
  const redirect = safeRedirect(params.get('redirect'));
  // NOTE: navigate from the actor subscription with flushSync, in the same tick as the
  // transition to loggedIn: the location changes in the same render as the session, so the
  // route guard that sends logged-in users from /login to / never sees the new session on /login.
  useEffect(() => {
    let was = core.session.getSnapshot().context.token !== null;
    const sub = core.session.subscribe((snap) => {
      const now = snap.context.token !== null;
      if (now && !was) void navigate(redirect, { replace: true, flushSync: true });
      was = now;
    });
    return () => sub.unsubscribe();
  }, [core, redirect, navigate]);

  const submit = () => {
    const next = collectErrors<Field>({ email: checkEmail(email), password: checkPassword(password) });
    setErrors(next);
    if (!hasErrors(next)) send({ type: 'user.checkAuthType', email: email.trim(), password });
  };

  const inSecurityStep = status === 'securityStep' || status === 'loggingIn';
  if (inSecurityStep && session.authType) {
    return (
      <AuthLayout>
        <SecurityStep
          authType={session.authType}
          email={session.email}
          sending={status === 'securityStep' && session.pending}
          codeSent={session.codeSent}
          submitting={status === 'loggingIn'}
          serverError={session.error}
          onSendCode={() => send({ type: 'user.sendCode' })}
          onSubmit={(code) => send({ type: 'user.login', code })}
          onCancel={() => send({ type: 'user.cancel' })}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout aside={mobile ? undefined : <QrLoginPanel />}>
      {mobile ? (
        <div className="auth-tabs">
        <Tabs<Mode>
          label={t('loginTitle')}
          active={mode}
          onChange={setMode}
          items={[
            { key: 'password', label: t('loginWithPassword') },
            { key: 'qr', label: t('loginWithQr') },
          ]}
        />
        </div>
      ) : null}
      {mobile && mode === 'qr' ? (
        <div className="auth-qr-inline">
          {/* The screen keeps its one h1 whichever tab is open. */}
          <h1 className="auth-title">{t('loginTitle')}</h1>
          <QrLoginPanel />
        </div>
      ) : (
        <form className="auth-form" onSubmit={(e) => e.preventDefault()} noValidate aria-label={t('loginTitle')}>
          <h1 className="auth-title">{t('loginTitle')}</h1>
          <p className="auth-subtitle">{t('loginSubtitle')}</p>
          <FormField
            label={t('email')}
            type="email"
            autoComplete="username"
            placeholder={t('emailPlaceholder')}
            value={email}
            onValueChange={setEmail}
            error={errors.email ? errorText(t, errors.email) : undefined}
          />
          <FormField
            label={t('password')}
            type="password"
            autoComplete="current-password"
            placeholder={t('passwordPlaceholder')}
            value={password}
            onValueChange={setPassword}
            error={errors.password ? errorText(t, errors.password) : undefined}
          />
          <div className="auth-row-end">
            <Link className="auth-link" to="/reset-password">
              {t('forgotPassword')}
            </Link>
          </div>
          {session.error && status === 'guest' ? (
            <p className="auth-server-error" role="alert">
              {session.error}
            </p>
          ) : null}
          <Button type="submit" variant="primary" block pending={status === 'authenticating'} onClick={submit}>
            {t('loginButton')}
          </Button>
          <p className="auth-switch">
            {t('noAccount')}{' '}
            <Link className="auth-link" to="/register">
              {t('registerNow')}
            </Link>
          </p>
        </form>
      )}
    </AuthLayout>
  );
}
