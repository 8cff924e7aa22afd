import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import type { Page } from '../../../protocol/envelope.ts';
import type { LoginRecord } from '../../../protocol/user.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { Pager } from '../../components/Pager.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { SettingsPage } from './SettingsPage.tsx';
import { isPage, useViewState } from '../../hooks/useViewState.ts';
import { formatDateTime } from '../../../format/date.ts';

/** Rows per page of the login history. */
export const HISTORY_PAGE_SIZE = 10;

type Load = { status: 'loading' } | { status: 'error'; msg: string } | { status: 'ready'; page: Page<LoginRecord> };

/**
 * /my/settings/login-history: POST /user/login-history, paged. A table (time, client, IP,
 * account) on tablet and desktop, a card list on mobile.
 */
export function LoginHistoryScreen() {
  const { t } = useTranslation('settings');
  const api = useApi();
  const device = useDevice();
  // The page is view state (issue 16): in the record, shown again by a replay.
  const [page, setPage] = useViewState<number>('loginHistory.page', 1, isPage);
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  useEffect(() => {
    // NOTE: no AbortSignal: the api client reports an aborted call as a network-error toast,
    // so a stale page's answer is ignored instead of cancelled.
    let live = true;
    setLoad((l) => (l.status === 'ready' ? l : { status: 'loading' }));
    api
      .post<Page<LoginRecord>>('/user/login-history', { page, pageSize: HISTORY_PAGE_SIZE })
      .then((p) => {
        if (live) setLoad({ status: 'ready', page: p });
      })
      .catch((e: unknown) => {
        if (live) setLoad({ status: 'error', msg: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [api, page]);

  const rows = load.status === 'ready' ? load.page.list : [];

  return (
    <SettingsPage title={t('historyTitle')}>
      <section className="settings-card settings-card--flush">
        {load.status === 'error' ? (
          <p className="auth-server-error" role="alert">{load.msg}</p>
        ) : load.status === 'loading' && rows.length === 0 ? (
          <p className="settings-muted settings-empty">{t('loading')}</p>
        ) : rows.length === 0 ? (
          <p className="settings-muted settings-empty">{t('noRecords')}</p>
        ) : device === 'mobile' ? (
          <ul className="history-cards" aria-label={t('historyTitle')}>
            {rows.map((r) => (
              <li key={r.id} className="history-card" data-testid="login-record">
                <div><span>{t('time')}</span><b>{formatDateTime(r.time)}</b></div>
                <div><span>{t('client')}</span><b>{r.client}</b></div>
                <div><span>{t('ip')}</span><b>{r.ip}</b></div>
                <div><span>{t('account')}</span><b>{r.account}</b></div>
              </li>
            ))}
          </ul>
        ) : (
          <table className="history-table">
            <thead>
              <tr>
                <th scope="col">{t('time')}</th>
                <th scope="col">{t('client')}</th>
                <th scope="col">{t('ip')}</th>
                <th scope="col">{t('account')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="login-record">
                  <td>{formatDateTime(r.time)}</td>
                  <td>{r.client}</td>
                  <td>{r.ip}</td>
                  <td>{r.account}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {load.status === 'ready' ? <Pager page={page} total={load.page.total} pageSize={load.page.pageSize} onPage={setPage} className="history-pager" /> : null}
      </section>
    </SettingsPage>
  );
}
