import { useTranslation } from 'react-i18next';

export interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
}

/** Search by symbol or name; filtering itself is `matchesSearch` in components/market/marketList.ts. */
export function SearchBox({ value, onChange }: SearchBoxProps) {
  const { t } = useTranslation('market');
  return (
    <div className="mk-search">
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className="mk-search__icon">
        <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M16 16l4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        type="search"
        className="mk-search__input"
        placeholder={t('search')}
        aria-label={t('search')}
        value={value}
        maxLength={32}
        onChange={(e) => onChange(e.target.value)}
      />
      {value.length > 0 && (
        <button type="button" className="mk-search__clear" aria-label={t('search.clear')} onClick={() => onChange('')}>
          ×
        </button>
      )}
    </div>
  );
}
