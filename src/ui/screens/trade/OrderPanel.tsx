import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../format/number.ts';
import {
  estimateCost,
  RISK_LEVERAGE,
  type OrderDraft,
  type OrderError,
  type OrderRules,
  type OrderSide,
} from '../../../machines/orderMachine.ts';
import type { ContractKind, SymbolInfo } from '../../../protocol/market.ts';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useLoginHref } from '../../hooks/useLoginHref.ts';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import type { Order } from '../../../protocol/trading.ts';

export interface OrderPanelProps {
  info: SymbolInfo;
  loggedIn: boolean;
  /** Available margin in the quote coin (null while loading). */
  available: number | null;
  lastPrice: number | null;
  /** A price picked in the order book fills the limit price. */
  pickedPrice: { price: string; n: number } | null;
  /** The latest user-socket order frame (drives pending → filled / canceled). */
  lastOrderFrame: Order | null;
  /** The contract kind whose trading API the core's order actor posts to. */
  contract: ContractKind;
  /** Called when an order was accepted (refresh lists). */
  onPlaced?: () => void;
}

export const rulesOf = (i: SymbolInfo): OrderRules => ({
  minOrderQuantity: i.minOrderQuantity,
  maxOrderQuantity: i.maxOrderQuantity,
  qtyStep: i.qtyStep,
  minLever: i.minLever,
  maxLever: i.maxLever,
  openingFeeRatio: i.openingFeeRatio,
});

/** The translated text of a validation error (SPEC §5 texts come from the common namespace). */
export function useOrderErrorText(): (e: OrderError) => string {
  const { t } = useTranslation(['trade', 'common']);
  return (e) => {
    switch (e.key) {
      case 'limitPriceRequired':
        return t('common:limitPriceRequired');
      case 'minOrderQuantity':
        return `${t('common:minOrderQuantity')}${e.value ?? ''}`;
      case 'insufficientBalance':
        return t('common:insufficientBalance');
      case 'maxOrderQuantity':
        return `${t('trade:err_maxOrderQuantity')}${e.value ?? ''}`;
      case 'qtyStep':
        return `${t('trade:err_qtyStep')}${e.value ?? ''}`;
      case 'leverageRange':
        return t('trade:err_leverageRange', { range: e.value ?? '' });
      case 'qtyRequired':
      case 'tpInvalid':
      case 'slInvalid':
      case 'noPrice':
        return t(`trade:err_${e.key}`);
    }
  };
}

/**
 * The order ticket: limit/market, price, quantity, leverage (slider + input within
 * minLever..maxLever), optional TP/SL, margin and fee estimates, available balance, and the
 * buy/sell buttons in the page-wide --up/--down colours. Its behaviour is {@link orderMachine};
 * this component only renders the snapshot and sends events. Visitors see a login prompt.
 */
export function OrderPanel(props: OrderPanelProps) {
  const { info, loggedIn } = props;
  const { t } = useTranslation('trade');
  const loginHref = useLoginHref();
  if (!loggedIn) {
    return (
      <section className="rf-op rf-op--guest" aria-label={t('orderPanel')}>
        <p>{t('loginToTrade')}</p>
        <div className="rf-op-guest-actions">
          <Link className="rf-btn rf-btn--md rf-btn--primary" to={loginHref}>
            {t('login')}
          </Link>
          <Link className="rf-btn rf-btn--md rf-btn--secondary" to="/register">
            {t('register')}
          </Link>
        </div>
      </section>
    );
  }
  return <OrderTicket key={info.symbol} {...props} />;
}

function OrderTicket({ info, contract, available, lastPrice, pickedPrice, lastOrderFrame, onPlaced }: OrderPanelProps) {
  const { t } = useTranslation('trade');
  const core = useAppCore();
  const errorText = useOrderErrorText();
  const [actor, send] = useScreenActor({
    name: 'order',
    contract,
    input: { symbol: info.symbol, rules: rulesOf(info), newId: () => core.ports.random.id(), draft: { leverage: Math.min(10, info.maxLever) } },
  });
  const state = useSelector(actor, (s) => s.value as string);
  const draft = useSelector(actor, (s) => s.context.draft);
  const error = useSelector(actor, (s) => s.context.error);
  const failure = useSelector(actor, (s) => s.context.failure);

  useEffect(() => {
    actor.send({ type: 'order.rules', symbol: info.symbol, rules: rulesOf(info) });
  }, [actor, info]);
  useEffect(() => {
    if (pickedPrice) send({ type: 'order.edit', patch: { price: pickedPrice.price, type: 'limit' } });
  }, [send, pickedPrice]);
  useEffect(() => {
    if (lastOrderFrame) {
      actor.send({ type: 'order.frame', clientOrderId: lastOrderFrame.clientOrderId, orderId: String(lastOrderFrame.id), status: lastOrderFrame.status });
    }
  }, [actor, lastOrderFrame]);
  useEffect(() => {
    if (state === 'pending' || state === 'filled') onPlaced?.();
  }, [state, onPlaced]);

  const market = { available: available ?? 0, lastPrice: lastPrice ?? 0 };
  const edit = (patch: Partial<OrderDraft>) => send({ type: 'order.edit', patch });
  const submit = (side: OrderSide) => {
    // NOTE: after a network failure the same button is a retry of the same ticket, so only a
    // side change edits the draft (which starts a new ticket).
    if (draft.side !== side) edit({ side });
    send({ type: 'order.submit', market });
  };
  const cost = estimateCost(draft, market, rulesOf(info));
  const busy = state === 'submitting';
  const maxQty = lastPrice && available ? (available * draft.leverage) / (lastPrice * (1 + info.openingFeeRatio * draft.leverage)) : 0;
  const setPct = (pct: number) => {
    const q = Math.floor((maxQty * pct) / info.qtyStep) * info.qtyStep;
    edit({ qty: q > 0 ? q.toFixed(info.qtyPrecision) : '' });
  };

  return (
    <section className="rf-op" aria-label={t('orderPanel')} data-state={state}>
      <div className="rf-op-types" role="tablist" aria-label={t('orderType')}>
        {(['limit', 'market'] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={draft.type === k} className={`rf-tab ${draft.type === k ? 'is-active' : ''}`} onClick={() => edit({ type: k })}>
            {t(k)}
          </button>
        ))}
      </div>

      <label className="rf-op-field">
        <span>{t('leverage')}</span>
        <span className="rf-op-lev">
          <input
            type="range"
            min={info.minLever}
            max={info.maxLever}
            step={1}
            value={draft.leverage}
            aria-label={t('leverageSlider')}
            onChange={(e) => edit({ leverage: Number(e.target.value) })}
          />
          <input
            type="number"
            className="rf-op-lev-input"
            min={info.minLever}
            max={info.maxLever}
            value={draft.leverage}
            aria-label={t('leverage')}
            onChange={(e) => edit({ leverage: Math.round(Number(e.target.value)) })}
          />
          <span>x</span>
        </span>
      </label>
      {draft.leverage > RISK_LEVERAGE && <p className="rf-op-hint rf-op-warn">{t('highLeverageHint')}</p>}

      <label className="rf-op-field">
        <span>{t('price')} ({info.quote})</span>
        {draft.type === 'limit' ? (
          <input inputMode="decimal" value={draft.price} placeholder={t('price')} aria-label={t('price')} onChange={(e) => edit({ price: e.target.value })} />
        ) : (
          <input value={t('marketPrice')} disabled aria-label={t('price')} />
        )}
      </label>
      <label className="rf-op-field">
        <span>{t('quantity')} ({info.base})</span>
        <input inputMode="decimal" value={draft.qty} placeholder={`${t('min')} ${info.minOrderQuantity}`} aria-label={t('quantity')} onChange={(e) => edit({ qty: e.target.value })} />
      </label>
      <div className="rf-op-pcts">
        {[25, 50, 75, 100].map((p) => (
          <button key={p} type="button" onClick={() => setPct(p / 100)}>
            {p}%
          </button>
        ))}
      </div>

      <details className="rf-op-tpsl">
        <summary>{t('tpsl')}</summary>
        <label className="rf-op-field">
          <span>{t('takeProfit')}</span>
          <input inputMode="decimal" value={draft.tp} aria-label={t('takeProfit')} onChange={(e) => edit({ tp: e.target.value })} />
        </label>
        <label className="rf-op-field">
          <span>{t('stopLoss')}</span>
          <input inputMode="decimal" value={draft.sl} aria-label={t('stopLoss')} onChange={(e) => edit({ sl: e.target.value })} />
        </label>
      </details>

      <dl className="rf-op-est">
        <dt>{t('available')}</dt>
        <dd className="rf-num" data-testid="available">
          {available === null ? '--' : formatNumber(available, 2)} {info.quote}
        </dd>
        <dt>{t('margin')}</dt>
        <dd className="rf-num">{cost ? formatNumber(cost.margin, 2) : '--'} {info.quote}</dd>
        <dt>{t('feeEstimate')}</dt>
        <dd className="rf-num">{cost ? formatNumber(cost.fee, 4) : '--'} {info.quote}</dd>
      </dl>

      {error && (
        <p className="rf-op-error" role="alert">
          {errorText(error)}
        </p>
      )}
      <OrderStatusLine state={state} failure={failure?.msg ?? null} onRetry={() => send({ type: 'order.retry' })} />

      <div className="rf-op-actions">
        <Button variant="up" block pending={busy && draft.side === 'buy'} disabled={busy} onClick={() => submit('buy')}>
          {t('buyLong')}
        </Button>
        <Button variant="down" block pending={busy && draft.side === 'sell'} disabled={busy} onClick={() => submit('sell')}>
          {t('sellShort')}
        </Button>
      </div>

      <Modal
        open={state === 'confirming'}
        onClose={() => send({ type: 'order.back' })}
        title={t('riskTitle')}
        footer={
          <>
            <Button variant="secondary" onClick={() => send({ type: 'order.back' })}>
              {t('back')}
            </Button>
            <Button variant={draft.side === 'buy' ? 'up' : 'down'} onClick={() => send({ type: 'order.confirm' })}>
              {t('confirmOrder')}
            </Button>
          </>
        }
      >
        <p>{t('riskBody', { lev: draft.leverage })}</p>
      </Modal>
    </section>
  );
}

function OrderStatusLine({ state, failure, onRetry }: { state: string; failure: string | null; onRetry: () => void }) {
  const { t } = useTranslation('trade');
  switch (state) {
    case 'submitting':
      return <p className="rf-op-status">{t('st_submitting')}</p>;
    case 'pending':
      return <p className="rf-op-status" role="status">{t('st_pending')}</p>;
    case 'filled':
      return <p className="rf-op-status rf-up" role="status">{t('st_filled')}</p>;
    case 'canceled':
      return <p className="rf-op-status" role="status">{t('st_canceled')}</p>;
    case 'rejected':
      return (
        <p className="rf-op-error" role="alert">
          {t('st_rejected')}: {failure}
        </p>
      );
    case 'failed':
      return (
        <p className="rf-op-error" role="alert">
          {t('st_network')}{' '}
          <button type="button" className="rf-link" onClick={onRetry}>
            {t('retry')}
          </button>
        </p>
      );
    default:
      return null;
  }
}
