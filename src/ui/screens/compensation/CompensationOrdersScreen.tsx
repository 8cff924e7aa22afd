import { useEffect, useMemo, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { toast } from '../../components/toast.ts';
import { formatNumber, trendOf } from '../../../format/number.ts';
import { COMPENSATION_RULES } from '../../../protocol/compensation.ts';
import type { CompensationSummary } from '../../../protocol/compensation.ts';
import { voucherKindSchema } from '../../../protocol/vouchers.ts';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { Pager } from '../../components/Pager.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { isPage, oneOf, useViewState } from '../../hooks/useViewState.ts';
import { formatUsdtDisplay } from '../../components/account/money.ts';
import { ActionDialog } from './ActionDialog.tsx';
import { CompensationList } from './CompensationList.tsx';
import { firstEligible, STATUS_FILTERS } from './compensationModel.ts';
import type { StatusFilter } from './compensationModel.ts';
import { PAGE_SIZE, useCompensationList } from './useCompensationData.ts';
import './compensation.css';

function Banner() {
  const { t } = useTranslation('compensation');
  return (
    <section className="comp-banner" aria-label={t('bannerTitle')}>
      <div>
        <h2 className="comp-banner__title">{t('bannerTitle')}</h2>
        <p className="comp-banner__fund">{t('bannerFund', { amount: formatNumber(COMPENSATION_RULES.riskFundUsd, 0) })}</p>
        <p className="comp-banner__text">{t('bannerText')}</p>
      </div>
      <ol className="comp-steps" aria-label={t('howTitle')}>
        {(['step1', 'step2', 'step3', 'step4'] as const).map((k, i) => (
          <li key={k}>
            <span className="comp-steps__n">{i + 1}</span>
            {t(k)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Summary({ s }: { s: CompensationSummary }) {
  const { t } = useTranslation('compensation');
  const tr = trendOf(s.totalUserPnl);
  const cards: [string, string, string][] = [
    ['summaryPnl', s.totalUserPnl, tr === 'up' ? 'acct-up' : tr === 'down' ? 'acct-down' : ''],
    ['summaryCompensation', s.totalUserCompensation, ''],
    ['summaryPaid', s.totalPaid, ''],
    ['summaryPending', s.pendingWithdrawal, 'comp-accent'],
  ];
  return (
    <div className="comp-summary">
      {cards.map(([k, v, cls]) => (
        <div key={k} className="comp-summary__card" data-testid={`comp-${k}`}>
          <span className="acct-muted">{t(k)}</span>
          <b className={cls}>{formatUsdtDisplay(v)}</b>
          <span className="acct-muted comp-summary__unit">USDT</span>
          {k === 'summaryPnl' ? <span className="acct-muted comp-summary__hint" data-testid="comp-summaryPnl-hint">{t('summaryPnlHint')}</span> : null}
        </div>
      ))}
    </div>
  );
}

/** The core's compensation actor (src/core/screenMachines.ts). */
const COMPENSATION_REQUEST = { name: 'compensation' } as const;

/**
 * /my/compensation/orders: the risk-free trading compensation programme. Summary cards, a status
 * filter, the orders (desktop table / phone cards) with every SPEC §3 field, and the claim / boost /
 * withdraw dialog run by compensationMachine. Live: user-socket `compensation` frames reload the
 * list and update the order in an open dialog. `?voucher=<id>&kind=<kind>` (the coupon screen's
 * "Use") opens the claim or boost dialog of the first eligible order with that voucher chosen.
 */
export function CompensationOrdersScreen() {
  const { t } = useTranslation('compensation');
  const device = useDevice();
  // The status filter and page are view state (issue 16): in the record, shown again by a replay.
  const [filter, setFilter] = useViewState<StatusFilter>('compensation.filter', 'all', oneOf(STATUS_FILTERS));
  const [page, setPage] = useViewState<number>('compensation.page', 1, isPage);
  const { load, reload } = useCompensationList(filter, page);
  const [params, setParams] = useSearchParams();

  const [actor, send] = useScreenActor(COMPENSATION_REQUEST);
  const state = useSelector(actor, (s) => s.value);
  const doneAction = useSelector(actor, (s) => (s.value === 'done' ? s.context.action : null));

  useEffect(() => {
    if (!doneAction) return;
    toast.success(t(doneAction === 'claim' ? 'doneClaim' : doneAction === 'boost' ? 'doneBoost' : 'doneWithdraw'));
    reload();
  }, [doneAction, reload, t]);

  // The coupon screen's "Use": preselect the voucher in the first eligible order's dialog, once.
  const preselected = useRef(false);
  useEffect(() => {
    if (preselected.current || load.status !== 'ready') return;
    const kind = voucherKindSchema.safeParse(params.get('kind'));
    const voucherId = Number(params.get('voucher'));
    if (!kind.success || !Number.isInteger(voucherId) || voucherId <= 0) return;
    preselected.current = true;
    const target = firstEligible(load.data.list, kind.data);
    // derived from the URL: a replayed screen opens the same dialog from the same URL
    if (target) actor.send({ type: 'comp.open', order: target, action: kind.data === 'lossProtection' ? 'claim' : 'boost', voucherId });
    setParams({}, { replace: true });
  }, [load, params, setParams, actor]);

  const items = useMemo(() => STATUS_FILTERS.map((k) => ({ key: k, label: k === 'all' ? t('tabAll') : t(`status_${k}`) })), [t]);

  return (
    <AccountLayout title={t('title')}>
      <Banner />
      {load.status === 'ready' ? <Summary s={load.data.summary} /> : null}
      <div className={device === 'mobile' ? 'comp-panel' : 'acct-card acct-card--flush comp-panel'}>
        <div className="comp-tabs">
          <Tabs
            items={items}
            active={filter}
            label={t('filterLabel')}
            onChange={(k) => {
              setFilter(k);
              setPage(1);
            }}
          />
        </div>
        {load.status === 'error' ? (
          <p className="acct-error comp-pad" role="alert">
            {t('loadFailed', { msg: load.msg })}
          </p>
        ) : load.status === 'loading' ? (
          <p className="acct-muted comp-pad">{t('common:loading')}</p>
        ) : load.data.list.length === 0 ? (
          <EmptyState text={t('empty')} />
        ) : (
          <CompensationList orders={load.data.list} mobile={device === 'mobile'} onAction={(order, action) => send({ type: 'comp.open', order, action })} />
        )}
        {load.status === 'ready' ? <Pager page={page} total={load.data.total} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
      </div>
      {state !== 'idle' ? <ActionDialog actor={actor} send={send} /> : null}
    </AccountLayout>
  );
}
