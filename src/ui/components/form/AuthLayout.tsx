import type { ReactNode } from 'react';

export interface AuthLayoutProps {
  children: ReactNode;
  /** Desktop-only side panel (the QR login on /login); hidden below 768 px. */
  aside?: ReactNode;
}

/** The centred card the login, register and reset-password screens share. */
export function AuthLayout({ children, aside }: AuthLayoutProps) {
  return (
    <div className="auth-page">
      <div className={`auth-card${aside ? ' auth-card--split' : ''}`}>
        <div className="auth-card__main">{children}</div>
        {aside ? <aside className="auth-card__aside">{aside}</aside> : null}
      </div>
    </div>
  );
}
