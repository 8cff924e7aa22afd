import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Placeholder for an empty list or table; defaults to the translated 'No data'. */
export function EmptyState({ text, children }: { text?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <div className="rf-empty">
      <svg width="48" height="48" viewBox="0 0 48 48" aria-hidden="true">
        <rect x="8" y="12" width="32" height="26" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M8 20h32" stroke="currentColor" strokeWidth="2" />
      </svg>
      <p>{text ?? t('noData')}</p>
      {children}
    </div>
  );
}
