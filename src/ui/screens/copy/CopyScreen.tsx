import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { COPY_PATHS, COPY_SORTS } from '../../../protocol/copy.ts';
import type { CopySort, CopyTrader } from '../../../protocol/copy.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useLiveGet } from '../../hooks/useLiveGet.ts';
import { useLoginHref } from '../../hooks/useLoginHref.ts';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { oneOf, useViewState } from '../../hooks/useViewState.ts';
import { ApplyCard } from './ApplyCard.tsx';
import { FollowDialog } from './FollowDialog.tsx';
import { MyCopies } from './MyCopies.tsx';
import { TraderCard } from './TraderCard.tsx';
import { UnfollowDialog } from './UnfollowDialog.tsx';
import { ON_COPY, useMyFollows } from '../../components/copy/useCopyData.ts';
import '../../components/copy/copy.css';

export const FOLLOW = { name: 'copyFollow' } as const;
export const UNFOLLOW = { name: 'copyUnfollow' } as const;

/** Lead traders sorted and searched (a core live query, asked again on `copy` frames). */
function useTraders(sort: CopySort, q: string) {
  return useLiveGet<CopyTrader[]>(COPY_PATHS.traders, { sort, q: q.trim() || undefined }, ON_COPY);
}

/** The signed-in user's active copies by trader id. */
export function useCopyingIds(loggedIn: boolean): Set<number> {
  const { load } = useMyFollows();
  return useMemo(() => new Set(loggedIn && load.status === 'ready' ? load.data.filter((f) => f.status === 'active').map((f) => f.traderId) : []), [load, loggedIn]);
}

function MineOrLogin({ loggedIn }: { loggedIn: boolean }) {
  const { t } = useTranslation('copy');
  const [, sendUnfollow] = useScreenActor(UNFOLLOW);
  const loginHref = useLoginHref();
  if (!loggedIn) {
    return (
      <section className="cp-card cp-login">
        <p>{t('loginToCopy')}</p>
        <Link className="rf-btn rf-btn--primary rf-btn--md" to={loginHref}>{t('login')}</Link>
      </section>
    );
  }
  return (
    <>
      <MyCopies sendUnfollow={sendUnfollow} />
      <ApplyCard />
    </>
  );
}

/**
 * /copy: the lead traders with their figures (sort, search), the follow dialog, the user's copies
 * and copied positions (live), the unfollow dialog and the trader application.
 */
export function CopyScreen() {
  const { t } = useTranslation('copy');
  const { loggedIn } = useSession();
  const navigate = useNavigate();
  const loginHref = useLoginHref();
  const id = useId();
  // The sort is view state (issue 16): in the record, shown again by a replay.
  const [sort, setSort] = useViewState<CopySort>('copy.sort', 'roi30', oneOf(COPY_SORTS));
  const [q, setQ] = useState('');
  const { load } = useTraders(sort, q);
  const copying = useCopyingIds(loggedIn);
  const [followActor, sendFollow] = useScreenActor(FOLLOW);
  const [unfollowActor, sendUnfollow] = useScreenActor(UNFOLLOW);
  const onCopy = (tr: CopyTrader) => {
    if (!loggedIn) {
      navigate(loginHref);
      return;
    }
    sendFollow({ type: 'follow.open', trader: { id: tr.id, nickname: tr.nickname } });
  };
  const traders = load.status === 'ready' ? load.data : [];
  return (
    <div className="cp-page">
      <h1>{t('title')}</h1>
      <p className="cp-intro">{t('intro')}</p>
      <div className="cp-layout">
        <section className="cp-card cp-list" aria-labelledby={`${id}-h`}>
          <div className="cp-list__bar">
            <h2 id={`${id}-h`}>{t('tradersTitle')}</h2>
            <div className="cp-list__controls">
              <label className="cp-sr" htmlFor={`${id}-q`}>{t('searchLabel')}</label>
              <input id={`${id}-q`} type="search" className="cp-input" placeholder={t('searchPlaceholder')} value={q} onChange={(e) => setQ(e.target.value)} data-testid="cp-search" />
              <label className="cp-sr" htmlFor={`${id}-sort`}>{t('sortLabel')}</label>
              <select id={`${id}-sort`} className="cp-input" value={sort} onChange={(e) => setSort(e.target.value as CopySort)} data-testid="cp-sort">
                {COPY_SORTS.map((s) => <option key={s} value={s}>{t(`sort_${s}`)}</option>)}
              </select>
            </div>
          </div>
          {load.status === 'error' ? <p className="cp-error" role="alert">{t('loadFailed', { msg: load.msg })}</p> : null}
          {load.status === 'ready' && traders.length === 0 ? <EmptyState text={t('noTraders')} /> : null}
          <ul className="cp-traders" data-testid="cp-traders">
            {traders.map((tr) => <TraderCard key={tr.id} trader={tr} copying={copying.has(tr.id)} onCopy={onCopy} />)}
          </ul>
        </section>
        <div className="cp-side">
          <MineOrLogin loggedIn={loggedIn} />
        </div>
      </div>
      <FollowDialog actor={followActor} send={sendFollow} />
      <UnfollowDialog actor={unfollowActor} send={sendUnfollow} />
    </div>
  );
}
