import { useTranslation } from 'react-i18next';
import { Button } from './Button.tsx';
import { pageCount } from './paging.ts';

/**
 * Previous / page x of y / next under a paged list; nothing when everything fits on one page.
 * Styled by `.rf-pager` (src/ui/styles/components.css); `className` adds a screen's own layout.
 */
export function Pager({ page, total, pageSize, onPage, className }: { page: number; total: number; pageSize: number; onPage: (p: number) => void; className?: string }) {
  const { t } = useTranslation('assets');
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <div className={className ? `rf-pager ${className}` : 'rf-pager'}>
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('prev')}
      </Button>
      <span className="rf-pager__of" data-testid="page-of">
        {t('pageOf', { page, pages })}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('next')}
      </Button>
    </div>
  );
}
