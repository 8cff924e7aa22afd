import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Spinner } from '../../components/Spinner.tsx';

/** The not-found state of an unknown article or topic id: its own h1 and a way back. */
export function HelpNotFound({ kind, id }: { kind: 'article' | 'topic'; id: string }) {
  const { t } = useTranslation('help');
  return (
    <section className="rf-placeholder" data-testid="help-not-found">
      <p className="rf-placeholder__code" aria-hidden="true">
        404
      </p>
      <h1>{kind === 'article' ? t('articleNotFound') : t('topicNotFound')}</h1>
      <p>{kind === 'article' ? t('articleNotFoundText', { id }) : t('topicNotFoundText', { id })}</p>
      <Link className="rf-btn rf-btn--primary rf-btn--md" to="/help-center">
        {t('backToCenter')}
      </Link>
    </section>
  );
}

/** Loading (a heading is kept so the page always has its one h1). */
export function HelpLoading({ title }: { title: string }) {
  const { t } = useTranslation('help');
  return (
    <div className="rf-help" aria-busy="true">
      <h1 className="rf-sr-only">{title}</h1>
      <p className="rf-help-muted">
        <Spinner size={16} /> {t('loading')}
      </p>
    </div>
  );
}

export function HelpFailed({ title, msg }: { title: string; msg: string }) {
  const { t } = useTranslation('help');
  return (
    <div className="rf-help">
      <h1>{title}</h1>
      <p role="alert" className="rf-help-error">
        {t('loadFailed', { msg })}
      </p>
      <Link to="/help-center">{t('backToCenter')}</Link>
    </div>
  );
}
