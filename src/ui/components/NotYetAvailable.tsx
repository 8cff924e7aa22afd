import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * Shown inside the real shell for a route whose screen module has not been written yet
 * (see src/ui/app/screens.ts). Deliberately plain: it says the page is not available and
 * links home.
 */
export function NotYetAvailable() {
  const { t } = useTranslation('common');
  return (
    <section className="rf-placeholder" data-testid="not-yet-available">
      <h1>{t('notAvailable')}</h1>
      <p>{t('notAvailableHint')}</p>
      <Link className="rf-btn rf-btn--primary rf-btn--md" to="/">
        {t('backHome')}
      </Link>
    </section>
  );
}
