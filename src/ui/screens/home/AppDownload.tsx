import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';

const STORES = ['ios', 'android', 'apk'] as const;

/**
 * The app download section (SPEC §1, §8): the app is not published, so every button only
 * shows the "Coming Soon" message (the common namespace text).
 */
export function AppDownload() {
  const { t } = useTranslation('home');
  const soon = t('common:comingSoon');
  return (
    <section className="home-section home-app" id="download" data-testid="home-download">
      <div className="home-app__copy">
        <h2 className="home-section__title">{t('app.title')}</h2>
        <p className="home-app__text">{t('app.text')}</p>
        <div className="home-app__buttons">
          {STORES.map((s) => (
            <button key={s} type="button" className="home-store" onClick={() => toast.info(soon)} data-testid={`download-${s}`}>
              <StoreIcon store={s} />
              <span className="home-store__text">
                <small>{t('app.download')}</small>
                <b>{t(`app.${s}`)}</b>
              </span>
              <span className="home-store__soon">{soon}</span>
            </button>
          ))}
        </div>
      </div>
      <img className="home-app__art" src="/banners/banner-6.svg" alt="" aria-hidden="true" />
    </section>
  );
}

function StoreIcon({ store }: { store: (typeof STORES)[number] }) {
  if (store === 'ios') {
    return (
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path fill="currentColor" d="M16.4 12.6c0-2.3 1.9-3.4 2-3.5-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.1-2.8.9-3.5.9s-1.8-.8-3-.8C6.9 7.4 5.4 8.3 4.6 9.7c-1.7 2.9-.4 7.2 1.2 9.6.8 1.2 1.7 2.4 3 2.4 1.2 0 1.6-.8 3.1-.8s1.8.8 3.1.8 2.1-1.2 2.9-2.3c.9-1.3 1.3-2.6 1.3-2.7 0 0-2.7-1-2.8-4.1zM14.2 5.8c.6-.8 1.1-1.9 1-3-1 0-2.1.6-2.8 1.4-.6.7-1.1 1.8-1 2.9 1 .1 2.1-.5 2.8-1.3z" />
      </svg>
    );
  }
  if (store === 'android') {
    return (
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path fill="currentColor" d="M4 3.5v17l9.5-8.5zM14.6 13l2.6 2.3-10.7 6 8.1-8.3zM14.6 11 6.5 2.7l10.7 6zM18.3 9.4l2.7 1.5c.7.4.7 1.3 0 1.7l-2.7 1.6-2.8-2.4z" />
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      <path fill="currentColor" d="M7 9h10v8a1 1 0 0 1-1 1h-1v3h-2v-3h-2v3H9v-3H8a1 1 0 0 1-1-1zM4 9.5a1 1 0 0 1 2 0v5a1 1 0 0 1-2 0zm14 0a1 1 0 0 1 2 0v5a1 1 0 0 1-2 0zM7.3 8a4.8 4.8 0 0 1 2.4-3.6l-.8-1.3.4-.3.9 1.3a5 5 0 0 1 3.6 0l.9-1.3.4.3-.8 1.3A4.8 4.8 0 0 1 16.7 8z" />
    </svg>
  );
}
