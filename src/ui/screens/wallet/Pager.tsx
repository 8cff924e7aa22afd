import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { pageCount } from '../orders/historyQuery.ts';

/** Previous / page x of y / next under a paged list; nothing when everything fits on one page. */
export function Pager({ page, total, pageSize, onPage }: { page: number; total: number; pageSize: number; onPage: (p: number) => void }) {
  const { t } = useTranslation('assets');
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <div className="orders-pager">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('prev')}
      </Button>
      <span className="acct-muted" data-testid="page-of">
        {t('pageOf', { page, pages })}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('next')}
      </Button>
    </div>
  );
}
