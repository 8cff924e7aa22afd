import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ReportProblem } from '../../components/ReportProblem.tsx';
import './helpCenter.css';

/** Help-list ids of the footer's support columns (SPEC §2), one per landing-page topic. */
const TOPICS = [
  { key: 'GettingStarted', list: 23 },
  { key: 'Trading', list: 16 },
  { key: 'Assets', list: 18 },
  { key: 'Security', list: 21 },
] as const;

/**
 * /help-center: the help centre landing page (SPEC §2), with topic cards linking to the article
 * lists and the 'Report a problem' entry that exports a support bundle.
 */
export function HelpCenterScreen() {
  const { t } = useTranslation('replay');
  return (
    <div className="rf-help" data-testid="help-center">
      <header className="rf-help__hero">
        <h1>{t('helpTitle')}</h1>
        <p>{t('helpIntro')}</p>
      </header>
      <section aria-labelledby="rf-help-topics">
        <h2 id="rf-help-topics">{t('topicsTitle')}</h2>
        <ul className="rf-help__topics">
          {TOPICS.map((topic) => (
            <li key={topic.key} className="rf-help__topic">
              <h3>{t(`topic${topic.key}`)}</h3>
              <p>{t(`topic${topic.key}Text`)}</p>
              <Link to={`/help-list/${topic.list}`}>{t('browseArticles')}</Link>
            </li>
          ))}
        </ul>
      </section>
      <ReportProblem />
    </div>
  );
}
