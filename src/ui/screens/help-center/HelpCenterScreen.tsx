import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { ReportProblem } from '../../components/ReportProblem.tsx';
import { HelpSearchForm } from './HelpSearchForm.tsx';
import { highlightParts } from './highlight.ts';
import { useHelpCategories, useHelpSearch } from './useHelp.ts';
import './helpCenter.css';

/** `text` with each occurrence of the searched term in a <mark> (issue 26): React text nodes, never HTML. */
function Highlighted({ text, q }: { text: string; q: string }) {
  return (
    <>
      {highlightParts(text, q).map((p, i) => (p.hit ? <mark key={i} className="rf-help-hit">{p.text}</mark> : p.text))}
    </>
  );
}

/** Search hits for `q` (a server-side search in the user's language), the term marked in each. */
function SearchResults({ q }: { q: string }) {
  const { t } = useTranslation('help');
  const load = useHelpSearch(q);
  return (
    <section aria-labelledby="rf-help-results" data-testid="help-results">
      <h2 id="rf-help-results">{t('searchResults', { q })}</h2>
      {load.status === 'loading' ? (
        <p className="rf-help-muted">{t('loading')}</p>
      ) : load.status === 'error' ? (
        <p className="rf-help-error" role="alert">
          {load.msg}
        </p>
      ) : load.data.total === 0 ? (
        <p className="rf-help-muted" data-testid="help-no-results">
          {t('noResults', { q })}
        </p>
      ) : (
        <>
          <p className="rf-help-muted">{t('searchCount', { count: load.data.total })}</p>
          <ul className="rf-help-list">
            {load.data.list.map((hit) => (
              <li key={hit.id} data-testid="help-hit">
                <Link to={`/help-detail/${hit.id}`}>
                  <Highlighted text={hit.title} q={q} />
                </Link>
                <p>
                  <Highlighted text={hit.excerpt} q={q} />
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      <Link to="/help-center">{t('clearSearch')}</Link>
    </section>
  );
}

/** How many topic cards hold the space while loading: the seeded categories (server/help/content/types.ts CATEGORY_IDS). */
const TOPIC_PLACEHOLDERS = 9;

/**
 * /help-center: search, the topics (help categories from the server, in the user's language)
 * and the 'Report a problem' entry that exports a support bundle.
 */
export function HelpCenterScreen() {
  const { t } = useTranslation('help');
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const categories = useHelpCategories();
  return (
    <div className="rf-help" data-testid="help-center">
      <header className="rf-help__hero">
        <h1>{t('centerTitle')}</h1>
        <p>{t('centerIntro')}</p>
        <HelpSearchForm key={q} initial={q} />
      </header>
      {q ? <SearchResults q={q} /> : null}
      <section aria-labelledby="rf-help-topics">
        <h2 id="rf-help-topics">{t('topicsTitle')}</h2>
        {categories.status === 'loading' ? (
          <>
            <p className="rf-sr-only">{t('loading')}</p>
            {/* Cards of the final size hold the space until the topics arrive (issue 30: no layout shift). */}
            <ul className="rf-help__topics" aria-hidden="true">
              {Array.from({ length: TOPIC_PLACEHOLDERS }, (_, i) => (
                <li key={i} className="rf-help__topic rf-help__topic--skel">
                  <h3>{'\u00a0'}</h3>
                  <p>
                    {'\u00a0'}
                    <br />
                    {'\u00a0'}
                  </p>
                  <span className="rf-help-muted">{'\u00a0'}</span>
                </li>
              ))}
            </ul>
          </>
        ) : categories.status === 'error' ? (
          <p className="rf-help-error" role="alert">
            {t('loadFailed', { msg: categories.msg })}
          </p>
        ) : (
          <ul className="rf-help__topics">
            {categories.data.map((c) => (
              <li key={c.id} className="rf-help__topic" data-testid="help-topic">
                <h3>
                  <Link to={`/help-list/${c.id}`}>{c.title}</Link>
                </h3>
                <p>{c.summary}</p>
                <span className="rf-help-muted">{t('articleCount', { count: c.count })}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <ReportProblem />
    </div>
  );
}
