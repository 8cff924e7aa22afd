import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import { Link } from 'react-router-dom';
import type { CopyFollow } from '../../../protocol/copy.ts';
import { COPY_PATHS } from '../../../protocol/copy.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import type { ScreenSend } from '../../hooks/useScreenActor.ts';
import type { unfollowMachine } from '../../../machines/copyMachines.ts';
import { formatDateTime } from '../../../format/date.ts';
import { copyMsg, signedUsdt, trendClass, usdt } from '../../components/copy/copyModel.ts';
import { useMyCopyOrders, useMyCopyPositions, useMyFollows } from '../../components/copy/useCopyData.ts';

/** Toasts each newly skipped copied order with its reason (the server also records it and pushes a `copy` frame). */
function useSkippedToasts(): void {
  const { t } = useTranslation('copy');
  const { load } = useMyCopyOrders();
  const seen = useRef<number | null>(null);
  useEffect(() => {
    if (load.status !== 'ready') return;
    const top = load.data.list[0]?.id ?? 0;
    if (seen.current === null) {
      seen.current = top;
      return;
    }
    for (const o of load.data.list) {
      if (o.id <= seen.current) break;
      if (o.status === 'skipped' && o.reason) toast.warning(t('skippedToast', { reason: t(`reason_${o.reason}`) }));
    }
    seen.current = Math.max(seen.current, top);
  }, [load, t]);
}

function FollowRow({ f, onUnfollow }: { f: CopyFollow; onUnfollow: (f: CopyFollow) => void }) {
  const { t } = useTranslation('copy');
  const pnl = String(Number(f.realizedPnl) + Number(f.unrealizedPnl));
  return (
    <li className="cp-follow" data-testid={`cp-follow-${f.traderId}`}>
      <div className="cp-follow__head">
        <Link to={`/copy/trader/${f.traderId}`} className="cp-link">{f.traderNickname}</Link>
        {f.status === 'ended' ? <span className="cp-tag">{t(f.endReason ? `endReason_${f.endReason}` : 'ended')}</span> : null}
      </div>
      <dl className="cp-stats">
        <div><dt>{t('invested')}</dt><dd className="rf-num">{usdt(f.invested)}</dd></div>
        <div><dt>{t('cash')}</dt><dd className="rf-num">{usdt(f.cash)}</dd></div>
        <div><dt>{t('margin')}</dt><dd className="rf-num">{usdt(f.margin)}</dd></div>
        <div><dt>PnL</dt><dd className={`rf-num ${trendClass(pnl)}`}>{signedUsdt(pnl)}</dd></div>
      </dl>
      {f.status === 'active' ? (
        <Button size="sm" variant="secondary" onClick={() => onUnfollow(f)} data-testid={`cp-unfollow-${f.traderId}`}>{t('unfollow')}</Button>
      ) : null}
    </li>
  );
}

/** The user's copies, their copied positions (live: reloaded on every `copy` frame) and the copied orders. */
export function MyCopies({ sendUnfollow }: { sendUnfollow: ScreenSend<typeof unfollowMachine> }) {
  const { t } = useTranslation('copy');
  const api = useApi();
  const id = useId();
  const follows = useMyFollows();
  const positions = useMyCopyPositions();
  const orders = useMyCopyOrders();
  useSkippedToasts();
  const unfollow = (f: CopyFollow) => sendUnfollow({ type: 'unfollow.open', target: { followId: f.id, nickname: f.traderNickname, openPositions: f.openPositions } });
  const closePos = async (positionId: string) => {
    try {
      await api.post(COPY_PATHS.closePosition, { positionId });
      positions.reload();
      follows.reload();
    } catch (e) {
      toast.error(copyMsg(t, e instanceof Error ? e.message : 'Error'));
    }
  };
  const fl = follows.load.status === 'ready' ? follows.load.data : [];
  const ps = positions.load.status === 'ready' ? positions.load.data : [];
  const os = orders.load.status === 'ready' ? orders.load.data.list : [];
  return (
    <section className="cp-card" aria-labelledby={`${id}-h`} data-testid="cp-mine">
      <h2 id={`${id}-h`}>{t('myCopies')}</h2>
      {fl.length === 0 ? <EmptyState text={t('noCopies')} /> : <ul className="cp-follows">{fl.map((f) => <FollowRow key={f.id} f={f} onUnfollow={unfollow} />)}</ul>}
      <h3>{t('myPositions')}</h3>
      {ps.length === 0 ? (
        <p className="cp-muted" data-testid="cp-my-positions-empty">{t('noMyPositions')}</p>
      ) : (
        <div className="cp-table-wrap" tabIndex={0} role="region" aria-label={t('myPositions')}>
          <table className="cp-table" data-testid="cp-my-positions">
            <thead>
              <tr><th scope="col">{t('symbol')}</th><th scope="col">{t('side')}</th><th scope="col">{t('size')}</th><th scope="col">{t('entry')}</th><th scope="col">{t('upnl')}</th><th scope="col"><span className="cp-sr">{t('closePosition')}</span></th></tr>
            </thead>
            <tbody>
              {ps.map((p) => (
                <tr key={p.id} data-testid="cp-my-position">
                  <td>{p.symbol}<span className="cp-muted cp-small cp-owner">{p.traderNickname}{p.kept ? ` · ${t('kept')}` : ''}</span></td>
                  <td className={p.side === 'long' ? 'cp-up' : 'cp-down'}>{t(p.side)} {p.leverage}x</td>
                  <td className="rf-num" data-testid="cp-my-position-qty">{p.qty}</td>
                  <td className="rf-num">{p.entryPrice}</td>
                  <td className={`rf-num ${trendClass(p.unrealizedPnl)}`}>{signedUsdt(p.unrealizedPnl)}</td>
                  <td>{p.kept ? <Button size="sm" variant="secondary" onClick={() => closePos(p.id)}>{t('closePosition')}</Button> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>{t('recentOrders')}</h3>
      {os.length === 0 ? (
        <p className="cp-muted" data-testid="cp-my-orders-empty">{t('noMyOrders')}</p>
      ) : (
        <ul className="cp-orders" data-testid="cp-my-orders">
          {os.map((o) => (
            <li key={o.id} className={o.status === 'skipped' ? 'is-skipped' : ''}>
              <span className="rf-num cp-muted">{formatDateTime(o.time)}</span>
              <span>{o.symbol} {t(`action_${o.action}`)} {t(o.side)}</span>
              <span className="rf-num">{o.qty > 0 ? `${o.qty} @ ${o.price}` : `@ ${o.price}`}</span>
              <span className={o.status === 'skipped' ? 'cp-warn' : 'cp-up'}>{t(`status_${o.status}`)}{o.reason ? ` · ${t(`reason_${o.reason}`)}` : ''}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
