import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { toast } from '../components/toast.ts';
import { Logo } from './Logo.tsx';
import { APP_VERSION } from '../../core/appVersion.ts';
import { FOOTER_COLUMNS } from './footerLinks.ts';

const SOCIAL = [
  { name: 'X', d: 'M4 4l16 16M20 4 4 20' },
  { name: 'Telegram', d: 'M3 11l18-7-3 16-6-5-3 3v-5l9-7' },
  { name: 'Facebook', d: 'M14 8h3V4h-3a4 4 0 0 0-4 4v3H7v4h3v6h4v-6h3l1-4h-4V8z' },
  { name: 'YouTube', d: 'M3 8a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3zm7 1v6l5-3z' },
] as const;

/** Desktop footer (SPEC §2): brand, social icons, app badges, QR, five link columns, copyright. */
export function Footer() {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation('common');
  const comingSoon = (): void => {
    toast.info(tc('comingSoon'));
  };
  return (
    <footer className="rf-footer" data-testid="footer">
      <div className="rf-footer__inner">
        <div className="rf-footer__brand">
          <Logo />
          <p className="rf-muted">{t('tagline')}</p>
          <div className="rf-footer__social" aria-label={t('followUs')}>
            {SOCIAL.map((s) => (
              <span key={s.name} className="rf-footer__social-icon" title={s.name} aria-label={s.name} role="img">
                <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
                  <path d={s.d} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </span>
            ))}
          </div>
          <div className="rf-footer__apps">
            {(['appStore', 'googlePlay'] as const).map((k) => (
              <button key={k} type="button" className="rf-app-badge" data-testid={`badge-${k}`} onClick={comingSoon}>
                <strong>{t(k)}</strong>
                <small>{t('appVersion', { version: APP_VERSION })}</small>
              </button>
            ))}
            <span className="rf-app-qr" title={t('scanToDownload')} aria-label={t('scanToDownload')} role="img">
              <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true">
                <path fill="currentColor" d="M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm8-2h3v3h-3zm5 0h3v3h-3zm-5 5h3v3h-3zm5 0h3v3h-3z" />
              </svg>
            </span>
          </div>
        </div>
        {FOOTER_COLUMNS.map((col) => (
          <nav key={col.title} className="rf-footer__col" aria-label={t(col.title)}>
            <h3>{t(col.title)}</h3>
            {col.links.map((l) => (
              <Link key={l.to} to={l.to}>
                {t(l.label)}
              </Link>
            ))}
          </nav>
        ))}
      </div>
      <div className="rf-footer__copy">{t('copyright')}</div>
    </footer>
  );
}
