import { useEffect, useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../components/toast.ts';
import { mergeable } from '../../../machines/voucherMachine.ts';
import { couponUseHref, MERGE_MAX, mergePreview, VOUCHER_KINDS, VOUCHER_STATUSES } from '../../../protocol/vouchers.ts';
import type { Voucher, VoucherKind, VoucherStatus } from '../../../protocol/vouchers.ts';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { Pager } from '../../components/Pager.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { isPage, oneOf, useViewState } from '../../hooks/useViewState.ts';
import { formatVoucherValue, KIND_TABS, STATUS_FILTERS } from './couponModel.ts';
import { MergeDialog } from './MergeDialog.tsx';
import { PAGE_SIZE, useVoucherList } from './useVoucherList.ts';
import { VoucherCard } from './VoucherCard.tsx';
import './coupon.css';

/** The status filter as a row of chips (a radio group). */
function StatusFilter({ value, onChange, disabled }: { value: VoucherStatus; onChange: (s: VoucherStatus) => void; disabled: boolean }) {
  const { t } = useTranslation('coupon');
  return (
    <div className="cpn-filter" role="radiogroup" aria-label={t('statusLabel')}>
      {STATUS_FILTERS.map((s) => (
        <button
          key={s}
          type="button"
          role="radio"
          aria-checked={value === s}
          className={`cpn-filter__chip${value === s ? ' is-active' : ''}`}
          disabled={disabled && value !== s}
          onClick={() => onChange(s)}
          data-testid={`cpn-filter-${s}`}
        >
          {t(`status_${s}`)}
        </button>
      ))}
    </div>
  );
}

/** Merge mode's bar: hint, count, live preview of the result, cancel and next. */
function MergeBar({ selected, kind, onCancel, onNext }: { selected: readonly Voucher[]; kind: VoucherKind; onCancel: () => void; onNext: () => void }) {
  const { t } = useTranslation('coupon');
  const preview = formatVoucherValue(kind, mergePreview(selected).value);
  return (
    <div className="cpn-mergebar" data-testid="cpn-mergebar">
      <div className="cpn-mergebar__text">
        <span>{t('mergeHint')}</span>
        <b>
          {t('selected', { count: selected.length, max: MERGE_MAX })}
          {selected.length > 0 ? ` · ${t('preview', { value: t(preview.key, { value: preview.value }) })}` : ''}
        </b>
      </div>
      <div className="cpn-mergebar__actions">
        <Button variant="secondary" size="sm" onClick={onCancel} data-testid="cpn-merge-cancel">
          {t('common:cancel')}
        </Button>
        <Button size="sm" disabled={!mergeable(selected)} onClick={onNext} data-testid="cpn-merge-next">
          {t('next')}
        </Button>
      </div>
    </div>
  );
}

/** The core's coupon actor (src/core/screenMachines.ts). */
const COUPON_REQUEST = { name: 'coupon' } as const;

/**
 * /my/coupon: the user's loss-protection and speed vouchers (SPEC §3, §4). Tabs by kind, a status
 * filter, voucher cards with "Use" (→ the compensation orders with the voucher preselected) and a
 * merge mode run by voucherMachine (select 2..10 usable vouchers of the tab's kind, confirm with a
 * preview, see the new voucher). Live: `voucher` frames reload the list and drop a selected
 * voucher that was used or expired elsewhere. All I/O goes through the core's recorded ports.
 */
export function CouponScreen() {
  const { t } = useTranslation('coupon');
  const device = useDevice();
  const navigate = useNavigate();
  // The kind tab, status filter and page are view state (issue 16): in the record, shown again by a replay.
  const [kind, setKind] = useViewState<VoucherKind>('coupon.kind', 'lossProtection', oneOf(VOUCHER_KINDS));
  const [status, setStatus] = useViewState<VoucherStatus>('coupon.status', 'use', oneOf(VOUCHER_STATUSES));
  const [page, setPage] = useViewState<number>('coupon.page', 1, isPage);
  const { load, reload } = useVoucherList(kind, status, page);

  const [actor, send] = useScreenActor(COUPON_REQUEST);
  const state = useSelector(actor, (s) => s.value);
  const selected = useSelector(actor, (s) => s.context.selected);
  const merged = useSelector(actor, (s) => (s.value === 'done' ? s.context.result : null));
  const selecting = state !== 'browsing' && state !== 'done';

  useEffect(() => {
    if (!merged) return;
    toast.success(t('doneTitle'));
    reload();
  }, [merged, reload, t]);

  const startMerge = () => {
    setStatus('use');
    setPage(1);
    send({ type: 'merge.start', kind });
  };
  const changeKind = (k: VoucherKind) => {
    setKind(k);
    setPage(1);
    if (selecting) send({ type: 'merge.start', kind: k });
  };

  const tabs = useMemo(() => KIND_TABS.map((k) => ({ key: k, label: t(`tab_${k}`) })), [t]);
  const list = load.status === 'ready' ? load.data.list : [];
  const ids = new Set(selected.map((v) => v.id));

  return (
    <AccountLayout
      title={t('title')}
      actions={
        selecting ? null : (
          <Button variant="secondary" size="sm" onClick={startMerge} data-testid="cpn-merge-start">
            {t('merge')}
          </Button>
        )
      }
    >
      <p className="cpn-intro">{t('intro')}</p>
      <div className={device === 'mobile' ? 'cpn-panel' : 'acct-card acct-card--flush cpn-panel'}>
        <div className="cpn-tabs">
          <Tabs items={tabs} active={kind} label={t('kindLabel')} onChange={changeKind} />
        </div>
        <div className="cpn-toolbar">
          <StatusFilter
            value={status}
            disabled={selecting}
            onChange={(s) => {
              setStatus(s);
              setPage(1);
            }}
          />
        </div>
        {selecting ? (
          <MergeBar selected={selected} kind={kind} onCancel={() => send({ type: 'merge.cancel' })} onNext={() => send({ type: 'merge.confirm' })} />
        ) : null}
        {load.status === 'error' ? (
          <p className="acct-error cpn-pad" role="alert">
            {t('loadFailed', { msg: load.msg })}
          </p>
        ) : load.status === 'loading' ? (
          <p className="acct-muted cpn-pad">{t('common:loading')}</p>
        ) : list.length === 0 ? (
          <EmptyState text={t(`empty_${status}`)} />
        ) : (
          <ul className="cpn-grid" data-testid="cpn-list">
            {list.map((v) => (
              <VoucherCard
                key={v.id}
                v={v}
                selecting={selecting}
                selected={ids.has(v.id)}
                selectable={v.status === 'use' && v.kind === kind && selected.length < MERGE_MAX}
                onToggle={() => send({ type: 'merge.toggle', voucher: v })}
                onUse={() => void navigate(couponUseHref(v))}
              />
            ))}
          </ul>
        )}
        {load.status === 'ready' ? <Pager page={page} total={load.data.total} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
      </div>
      <MergeDialog actor={actor} send={send} />
    </AccountLayout>
  );
}
