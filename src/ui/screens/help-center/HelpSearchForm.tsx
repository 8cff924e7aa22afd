import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { HELP_SEARCH_MAX } from '../../../protocol/help.ts';

/** The search box: submitting opens /help-center?q=… (so a search can be bookmarked and shared). */
export function HelpSearchForm({ initial = '' }: { initial?: string }) {
  const { t } = useTranslation('help');
  const navigate = useNavigate();
  const [q, setQ] = useState(initial);
  return (
    <form
      className="rf-help-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const term = q.trim();
        navigate(term ? `/help-center?q=${encodeURIComponent(term)}` : '/help-center');
      }}
    >
      <label htmlFor="rf-help-q" className="rf-sr-only">
        {t('searchLabel')}
      </label>
      <input id="rf-help-q" type="search" value={q} maxLength={HELP_SEARCH_MAX} placeholder={t('searchPlaceholder')} onChange={(e) => setQ(e.target.value)} />
      <button type="submit" className="rf-btn rf-btn--primary rf-btn--md">
        {t('searchButton')}
      </button>
    </form>
  );
}
