import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { COPY_PATHS } from '../../../protocol/copy.ts';
import type { CopyTraderDetail, CopyTraderFill } from '../../../protocol/copy.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Pager } from '../../components/Pager.tsx';
import { useLiveGet } from '../../hooks/useLiveGet.ts';
import { useLoginHref } from '../../hooks/useLoginHref.ts';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { isPage, useViewState } from '../../hooks/useViewState.ts';
import { formatDateTime } from '../../../format/date.ts';
import { FOLLOW, UNFOLLOW } from './CopyScreen.tsx';
import { pct, signedUsdt, trendClass, usdt, windowCovered } from '../../components/copy/copyModel.ts';
import { FollowDialog } from './FollowDialog.tsx';
import { MyCopies } from './MyCopies.tsx';
import { PnlChart } from './PnlChart.tsx';
import { UnfollowDialog } from './UnfollowDialog.tsx';
import { ON_COPY } from '../../components/copy/useCopyData.ts';
import '../../components/copy/copy.css';

const HISTORY_PAGE = 10;
const ON_TRADE = ['copy', 'position', 'order'];

/** /copy/trader/:id: a lead trader's figures, PnL chart, open positions and trade history; copy / stop copying. */
export function CopyTraderScreen() {
  const { t } = useTranslation('copy');
  const { id = '' } = useParams();
  const { loggedIn } = useSession();
  const navigate = useNavigate();
  const loginHref = useLoginHref();
  const hid = useId();
  // The history page is view state (issue 16), one per trader: in the record, shown again by a replay.
  const [page, setPage] = useViewState<number>(`copy.trader.${id}.page`, 1, isPage);
  const detail = useLiveGet<CopyTraderDetail>(COPY_PATHS.trader(id), {}, ON_COPY);
  const history = useLiveGet<Page<CopyTraderFill>>(COPY_PATHS.traderHistory(id), { page, pageSize: HISTORY_PAGE }, ON_TRADE);
  const [followActor, sendFollow] = useScreenActor(FOLLOW);
  const [unfollowActor, sendUnfollow] = useScreenActor(UNFOLLOW);
  if (detail.load.status === 'loading') return <div className="cp-page"><h1>{t('title')}</h1><p className="cp-muted">…</p></div>;
  if (detail.load.status === 'error') {
    return (
      <div className="cp-page">
        <h1>{t('title')}</h1>
        <p className="cp-error" role="alert">{t('loadFailed', { msg: detail.load.msg })}</p>
        <Link className="cp-link" to="/copy">{t('backToList')}</Link>
      </div>
    );
  }
  const tr = detail.load.data;
  const copy = () => (loggedIn ? sendFollow({ type: 'follow.open', trader: { id: tr.id, nickname: tr.nickname } }) : navigate(loginHref));
  const fills = history.load.status === 'ready' ? history.load.data : null;
  // A window the trader's history does not cover beyond the shorter one shows '—' (issue 26, Minor 19).
  type Figure = [key: string, shown: string, cls: string, covered: boolean];
  const windowed = (key: string, d: number, v: string, show: (x: string) => string): Figure =>
    windowCovered(d, tr.historyDays) ? [key, show(v), trendClass(v), true] : [key, '—', 'cp-na', false];
  const figures: Figure[] = [
    windowed('roi7', 7, tr.roi7, pct), windowed('roi30', 30, tr.roi30, pct), windowed('roi90', 90, tr.roi90, pct),
    windowed('pnl7', 7, tr.pnl7, signedUsdt), windowed('pnl30', 30, tr.pnl30, signedUsdt), windowed('pnl90', 90, tr.pnl90, signedUsdt),
    ['winRate', `${Number(tr.winRate).toFixed(2)}%`, '', true], ['followers', String(tr.followers), '', true], ['aum', usdt(tr.aum), '', true],
  ];
  const partial = figures.some(([, , , ok]) => !ok);
  return (
    <div className="cp-page">
      <Link className="cp-link cp-back" to="/copy">← {t('backToList')}</Link>
      <header className="cp-card cp-hero">
        <span className="cp-avatar cp-avatar--lg" aria-hidden="true">{tr.nickname.slice(0, 1)}</span>
        <div className="cp-hero__text">
          <h1 data-testid="cp-trader-name">{tr.nickname}</h1>
          <p className="cp-muted">{tr.bio}</p>
          <p className="cp-muted cp-small">{t('since', { date: formatDateTime(tr.since).slice(0, 10) })}{tr.simulated ? ` · ${t('simulated')}` : ''}</p>
        </div>
        {tr.myFollowId !== null ? (
          <Button variant="secondary" onClick={() => sendUnfollow({ type: 'unfollow.open', target: { followId: tr.myFollowId ?? 0, nickname: tr.nickname, openPositions: 0 } })} data-testid="cp-trader-unfollow">{t('unfollow')}</Button>
        ) : (
          <Button onClick={copy} data-testid="cp-trader-copy">{t('copy')}</Button>
        )}
      </header>
      <section className="cp-card" aria-label={t('chartLabel', { name: tr.nickname })}>
        <dl className="cp-figures">
          {figures.map(([k, v, c, ok]) => (
            <div key={k}><dt>{t(k)}</dt><dd className={`rf-num ${c}`} data-testid={`cp-fig-${k}`} title={ok ? undefined : t('notCovered')}>{v}{ok ? null : <span className="rf-sr-only">{t('notCovered')}</span>}</dd></div>
          ))}
        </dl>
        {partial ? <p className="cp-history-note" data-testid="cp-history-note">{t('historyNote', { count: tr.historyDays })}</p> : null}
        <p className="cp-chart-title">{t('chartTitle')}</p>
        {tr.series.length < 2 ? <EmptyState text={t('chartEmpty')} /> : <PnlChart series={tr.series} times={tr.seriesTimes} label={t('chartLabel', { name: tr.nickname })} valueLabel={t('chartValues')} />}
      </section>
      <section className="cp-card" aria-labelledby={`${hid}-pos`}>
        <h2 id={`${hid}-pos`}>{t('positionsTitle')}</h2>
        {tr.positions.length === 0 ? <EmptyState text={t('noPositions')} /> : (
          <div className="cp-table-wrap" tabIndex={0} role="region" aria-label={t('positionsTitle')}>
            <table className="cp-table" data-testid="cp-lead-positions">
              <thead><tr><th scope="col">{t('symbol')}</th><th scope="col">{t('side')}</th><th scope="col">{t('size')}</th><th scope="col">{t('entry')}</th><th scope="col">{t('mark')}</th><th scope="col">{t('upnl')}</th></tr></thead>
              <tbody>
                {tr.positions.map((p) => (
                  <tr key={`${p.symbol}-${p.contract}`}>
                    <td>{p.symbol}</td>
                    <td className={p.side === 'long' ? 'cp-up' : 'cp-down'}>{t(p.side)} {p.leverage}x</td>
                    <td className="rf-num">{p.qty}</td>
                    <td className="rf-num">{p.entryPrice}</td>
                    <td className="rf-num">{p.markPrice}</td>
                    <td className={`rf-num ${trendClass(p.unrealizedPnl)}`}>{signedUsdt(p.unrealizedPnl)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="cp-card" aria-labelledby={`${hid}-hist`}>
        <h2 id={`${hid}-hist`}>{t('historyTitle')}</h2>
        {fills && fills.list.length === 0 ? <EmptyState text={t('noHistory')} /> : null}
        {fills && fills.list.length > 0 ? (
          <>
            <div className="cp-table-wrap" tabIndex={0} role="region" aria-label={t('historyTitle')}>
              <table className="cp-table" data-testid="cp-lead-history">
                <thead><tr><th scope="col">{t('time')}</th><th scope="col">{t('symbol')}</th><th scope="col">{t('side')}</th><th scope="col">{t('price')}</th><th scope="col">{t('size')}</th><th scope="col">{t('realized')}</th></tr></thead>
                <tbody>
                  {fills.list.map((f) => (
                    <tr key={f.id}>
                      <td className="rf-num">{formatDateTime(f.time)}</td>
                      <td>{f.symbol}</td>
                      <td className={f.side === 'buy' ? 'cp-up' : 'cp-down'}>{t(f.side)}</td>
                      <td className="rf-num">{f.price}</td>
                      <td className="rf-num">{f.qty}</td>
                      <td className={`rf-num ${trendClass(f.realizedPnl)}`}>{signedUsdt(f.realizedPnl)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} total={fills.total} pageSize={HISTORY_PAGE} onPage={setPage} className="cp-pager" />
          </>
        ) : null}
      </section>
      {loggedIn ? <MyCopies sendUnfollow={sendUnfollow} /> : null}
      <FollowDialog actor={followActor} send={sendFollow} />
      <UnfollowDialog actor={unfollowActor} send={sendUnfollow} />
    </div>
  );
}
