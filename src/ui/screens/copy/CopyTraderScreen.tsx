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
import { pct, signedUsdt, trendClass, usdt } from './copyModel.ts';
import { FollowDialog } from './FollowDialog.tsx';
import { MyCopies } from './MyCopies.tsx';
import { Sparkline } from './Sparkline.tsx';
import { UnfollowDialog } from './UnfollowDialog.tsx';
import { ON_COPY } from './useCopyData.ts';
import './copy.css';

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
  const figures: [string, string, string][] = [
    ['roi7', pct(tr.roi7), trendClass(tr.roi7)], ['roi30', pct(tr.roi30), trendClass(tr.roi30)], ['roi90', pct(tr.roi90), trendClass(tr.roi90)],
    ['pnl7', signedUsdt(tr.pnl7), trendClass(tr.pnl7)], ['pnl30', signedUsdt(tr.pnl30), trendClass(tr.pnl30)], ['pnl90', signedUsdt(tr.pnl90), trendClass(tr.pnl90)],
    ['winRate', `${Number(tr.winRate).toFixed(2)}%`, ''], ['followers', String(tr.followers), ''], ['aum', usdt(tr.aum), ''],
  ];
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
          {figures.map(([k, v, c]) => <div key={k}><dt>{t(k)}</dt><dd className={`rf-num ${c}`}>{v}</dd></div>)}
        </dl>
        <p className="cp-chart-title">{t('chartTitle')}</p>
        {tr.series.length < 2 ? <EmptyState text={t('chartEmpty')} /> : <Sparkline series={tr.series} label={t('chartLabel', { name: tr.nickname })} width={640} height={140} fluid />}
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
