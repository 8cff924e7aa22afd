import { useTranslation } from 'react-i18next';
import { Link, NavLink, useParams } from 'react-router-dom';
import { HELP_MSG } from '../../../protocol/help.ts';
import { HelpSearchForm } from './HelpSearchForm.tsx';
import { HelpFailed, HelpLoading, HelpNotFound } from './HelpStates.tsx';
import { helpIdOf, useHelpCategories, useHelpCategory } from './useHelp.ts';
import './helpCenter.css';

/** The topics as a side list, the current one marked. */
function TopicNav() {
  const { t } = useTranslation('help');
  const categories = useHelpCategories();
  if (categories.status !== 'ready') return null;
  return (
    <nav className="rf-help-side" aria-label={t('allTopics')}>
      <ul>
        {categories.data.map((c) => (
          <li key={c.id}>
            <NavLink to={`/help-list/${c.id}`} className={({ isActive }) => (isActive ? 'is-active' : '')}>
              {c.title}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Breadcrumb({ current }: { current: string }) {
  const { t } = useTranslation('help');
  return (
    <nav aria-label={t('breadcrumb')} className="rf-help-crumbs">
      <Link to="/help-center">{t('centerTitle')}</Link>
      <span aria-hidden="true"> / </span>
      <span aria-current="page">{current}</span>
    </nav>
  );
}

/** /help-list/{id}: one topic's articles. */
function TopicPage({ id }: { id: number }) {
  const { t } = useTranslation('help');
  const load = useHelpCategory(id);
  if (load.status === 'loading') return <HelpLoading title={t('centerTitle')} />;
  if (load.status === 'error') {
    return load.msg === HELP_MSG.categoryNotFound ? <HelpNotFound kind="topic" id={String(id)} /> : <HelpFailed title={t('centerTitle')} msg={load.msg} />;
  }
  const c = load.data;
  return (
    <div className="rf-help rf-help--list" data-testid="help-list">
      <TopicNav />
      <div className="rf-help-main">
        <Breadcrumb current={c.title} />
        <header className="rf-help__hero">
          <h1>{c.title}</h1>
          <p>{c.summary}</p>
        </header>
        <ul className="rf-help-list">
          {c.articles.map((a) => (
            <li key={a.id} data-testid="help-article-link">
              <Link to={`/help-detail/${a.id}`}>{a.title}</Link>
              <p>{a.summary}</p>
            </li>
          ))}
        </ul>
        <HelpSearchForm />
      </div>
    </div>
  );
}

/** /help-list without an id: every topic with its summary. */
function AllTopics() {
  const { t } = useTranslation('help');
  const categories = useHelpCategories();
  return (
    <div className="rf-help" data-testid="help-list">
      <Breadcrumb current={t('allTopics')} />
      <header className="rf-help__hero">
        <h1>{t('allTopics')}</h1>
        <p>{t('allTopicsIntro')}</p>
        <HelpSearchForm />
      </header>
      {categories.status === 'loading' ? (
        <p className="rf-help-muted">{t('loading')}</p>
      ) : categories.status === 'error' ? (
        <p className="rf-help-error" role="alert">
          {t('loadFailed', { msg: categories.msg })}
        </p>
      ) : (
        <ul className="rf-help__topics">
          {categories.data.map((c) => (
            <li key={c.id} className="rf-help__topic" data-testid="help-topic">
              <h2 className="rf-help__topic-title">
                <Link to={`/help-list/${c.id}`}>{c.title}</Link>
              </h2>
              <p>{c.summary}</p>
              <span className="rf-help-muted">{t('articleCount', { count: c.count })}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** /help-list/{id?}: a topic's article list, or every topic without an id; an unknown id shows not found. */
export function HelpListScreen() {
  const { id: raw } = useParams();
  if (raw === undefined) return <AllTopics />;
  const id = helpIdOf(raw);
  return id === null ? <HelpNotFound kind="topic" id={raw} /> : <TopicPage key={id} id={id} />;
}
