import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { HELP_MSG } from '../../../protocol/help.ts';
import { useLanguage } from '../../hooks/usePrefs.ts';
import { HelpBlocks } from './HelpBlocks.tsx';
import { HelpFailed, HelpLoading, HelpNotFound } from './HelpStates.tsx';
import { helpDate, helpIdOf, useHelpArticle } from './useHelp.ts';
import './helpCenter.css';

function Article({ id }: { id: number }) {
  const { t } = useTranslation('help');
  const { lang } = useLanguage();
  const load = useHelpArticle(id);
  if (load.status === 'loading') return <HelpLoading title={t('centerTitle')} />;
  if (load.status === 'error') {
    return load.msg === HELP_MSG.articleNotFound ? <HelpNotFound kind="article" id={String(id)} /> : <HelpFailed title={t('centerTitle')} msg={load.msg} />;
  }
  const a = load.data;
  return (
    <div className="rf-help rf-help--article" data-testid="help-detail">
      <article className="rf-help-main rf-help-article" aria-labelledby="rf-help-title">
        <nav aria-label={t('breadcrumb')} className="rf-help-crumbs">
          <Link to="/help-center">{t('centerTitle')}</Link>
          <span aria-hidden="true"> / </span>
          <Link to={`/help-list/${a.categoryId}`}>{a.categoryTitle}</Link>
        </nav>
        <h1 id="rf-help-title">{a.title}</h1>
        <p className="rf-help-lead">{a.summary}</p>
        <p className="rf-help-muted">{t('updated', { date: helpDate(a.updatedAt, lang) })}</p>
        <HelpBlocks blocks={a.blocks} />
      </article>
      {a.related.length > 0 ? (
        <aside className="rf-help-side" aria-labelledby="rf-help-related">
          <h2 id="rf-help-related">{t('related')}</h2>
          <ul>
            {a.related.map((r) => (
              <li key={r.id}>
                <Link to={`/help-detail/${r.id}`}>{r.title}</Link>
              </li>
            ))}
          </ul>
        </aside>
      ) : null}
    </div>
  );
}

/** /help-detail/{id}: one article in the user's language; an unknown id shows a clear not-found state. */
export function HelpDetailScreen() {
  const { id: raw = '' } = useParams();
  const id = helpIdOf(raw);
  return id === null ? <HelpNotFound kind="article" id={raw} /> : <Article key={id} id={id} />;
}
