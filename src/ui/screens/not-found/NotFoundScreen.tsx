import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Any unknown path (SPEC §2): rendered inside the shell, with a way home. */
export function NotFoundScreen() {
  const { t } = useTranslation('common');
  return (
    <section className="rf-placeholder" data-testid="not-found">
      <p className="rf-placeholder__code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFoundTitle')}</h1>
      <p>{t('notFoundText')}</p>
      <Link className="rf-btn rf-btn--primary rf-btn--md" to="/">
        {t('backHome')}
      </Link>
    </section>
  );
}
