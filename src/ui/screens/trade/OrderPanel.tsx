import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import { formatBalance, formatNumber } from '../../../format/number.ts';
import {
  estimateCost,
  hasLimitPrice,
  hasTimeInForce,
  isStop,
  maxQtyFor,
  previewOrder,
  orderRulesOf,
  RISK_LEVERAGE,
  type OrderDraft,
  type OrderError,
  type OrderMarket,
  type OrderSide,
  type OrderType,
} from '../../../machines/orderMachine.ts';
import { formatScaled, parseScaled, SCALE } from '../../../protocol/decimal.ts';
import { TransferDialog, useTransferDialog } from '../../components/transfer/TransferDialog.tsx';
import type { TransferTarget } from '../../components/transfer/transferForm.ts';
import { useBalances } from '../../components/account/useAccountData.ts';
import type { ContractKind, SymbolInfo } from '../../../protocol/market.ts';
import type { NetPreview } from '../../../protocol/netting.ts';
import { TIME_IN_FORCE, TRADE_MSG, TRIGGER_BY } from '../../../protocol/trading.ts';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useLoginHref } from '../../hooks/useLoginHref.ts';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { labelled } from '../../components/wallet/walletModel.ts';
import type { TradingAccount } from './useTradingAccount.ts';
import './orderForm.css';

export interface OrderPanelProps {
  info: SymbolInfo;
  loggedIn: boolean;
  /** Available margin in the quote coin (null while loading). */
  available: number | null;
  lastPrice: number | null;
  /** The mark price (ticker), for stops that trigger on the mark; null when unknown. */
  markPrice?: number | null;
  /** A price picked in the order book fills the limit price. */
  pickedPrice: { price: string; n: number } | null;
  /** The phone's Buy / Sell bar (issue 26): sets the side of the ticket (`n` counts the taps). */
  sideRequest?: { side: 'buy' | 'sell'; n: number } | null;
  /** The contract kind whose trading API the core's order actor posts to. */
  contract: ContractKind;
  /** Called when an order was accepted (refresh lists). */
  onPlaced?: () => void;
  /**
   * The account the form reads: the balance (exact decimal string), the open position of the
   * symbol (netting preview, reduce-only) and its open orders (Shift+C cancels them).
   */
  account?: Pick<TradingAccount, 'balance' | 'positions' | 'openOrders' | 'api' | 'refresh'>;
  /** Keyboard shortcuts on (the trade screen); off in embedded uses. */
  hotkeys?: boolean;
}

/** The ticket's rules of an instrument (src/machines/orderMachine.ts). */
export const rulesOf = orderRulesOf;

/** The translated text of a validation error (SPEC §5 texts come from the common namespace). */
export function useOrderErrorText(): (e: OrderError) => string {
  const { t } = useTranslation(['trade', 'common', 'orderForm']);
  return (e) => {
    switch (e.key) {
      case 'limitPriceRequired':
        return t('common:limitPriceRequired');
      case 'minOrderQuantity':
        return labelled(t('common:minOrderQuantity'), String(e.value ?? ''));
      case 'insufficientBalance':
        return t('common:insufficientBalance');
      case 'maxOrderQuantity':
        return `${t('trade:err_maxOrderQuantity')}${e.value ?? ''}`;
      case 'qtyStep':
        return `${t('trade:err_qtyStep')}${e.value ?? ''}`;
      case 'leverageRange':
        return t('trade:err_leverageRange', { range: e.value ?? '' });
      case 'priceStep':
        return `${t('orderForm:err_priceStep')}${e.value ?? ''}`;
      case 'triggerPriceRequired':
      case 'postOnlyLimitOnly':
      case 'wouldTriggerImmediately':
      case 'reduceOnlyWouldIncrease':
        return t(`orderForm:err_${e.key}`);
      case 'qtyRequired':
      case 'priceNotNumber':
      case 'pricePositive':
      case 'tpInvalid':
      case 'slInvalid':
      case 'noPrice':
        return t(`trade:err_${e.key}`);
    }
    return t('common:error');
  };
}

/** Server refusals the form translates (TRADE_MSG texts); anything else is shown as the server sent it. */
const SERVER_MSG_KEYS = ['postOnlyWouldTake', 'reduceOnlyWouldIncrease', 'wouldTriggerImmediately', 'triggerPriceRequired', 'postOnlyLimitOnly', 'insufficientBalance'] as const;

export function useServerMsgText(): (msg: string) => string {
  const { t } = useTranslation('orderForm');
  return (msg) => {
    const key = SERVER_MSG_KEYS.find((k) => TRADE_MSG[k] === msg);
    return key ? t(`srv_${key}`) : msg;
  };
}

/** The preview line of a {@link NetPreview} ('Reduces long 0.5 → 0.2'); '' for none. */
export function usePreviewText(): (p: NetPreview) => string {
  const { t } = useTranslation('orderForm');
  return (p) => {
    if (p.kind === 'none') return '';
    if (p.kind === 'refused') return t('pv_refused');
    const side = t(`side_${p.side}`);
    const toSide = p.kind === 'flip' ? t(`side_${p.toSide}`) : '';
    return t(`pv_${p.kind}`, { side, toSide, from: p.from, to: p.to, interpolation: { escapeValue: false } });
  };
}

/** True when a key press happens while the user types (inputs, text areas, selects, editable text). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * The order ticket: limit / market / stop (stop-market or stop-limit, trigger on the last or mark
 * price), price, quantity, leverage, reduce-only / post-only / time in force, TP/SL attached to a
 * new order, what the order will do to the position (the shared netting preview), margin and fee
 * estimates and the buy/sell buttons in the page-wide --up/--down colours. Its behaviour is
 * {@link orderMachine}; this component only renders the snapshot and sends events. Visitors see
 * a login prompt. Keyboard shortcuts (B, S, P, A, Enter, Shift+C, ?) are listed on '?'.
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

type TypeTab = 'limit' | 'market' | 'stop';
const tabOf = (type: OrderType): TypeTab => (type === 'limit' || type === 'market' ? type : 'stop');

function OrderTicket({ info, contract, available, lastPrice, markPrice, pickedPrice, sideRequest = null, onPlaced, account, hotkeys = true }: OrderPanelProps) {
  const { t } = useTranslation('trade');
  const { t: tf } = useTranslation('orderForm');
  const core = useAppCore();
  const errorText = useOrderErrorText();
  const serverText = useServerMsgText();
  const previewText = usePreviewText();
  const [actor, send] = useScreenActor({
    name: 'order',
    contract,
    input: { symbol: info.symbol, rules: rulesOf(info), newId: () => core.newId(), draft: { leverage: Math.min(10, info.maxLever) } },
  });
  const state = useSelector(actor, (s) => s.value as string);
  const draft = useSelector(actor, (s) => s.context.draft);
  const error = useSelector(actor, (s) => s.context.error);
  const failure = useSelector(actor, (s) => s.context.failure);
  const priceRef = useRef<HTMLInputElement>(null);
  const qtyRef = useRef<HTMLInputElement>(null);
  const focusPrice = useRef(false);
  const [help, setHelp] = useState(false);
  const [cancelAsk, setCancelAsk] = useState(false);

  useEffect(() => {
    actor.send({ type: 'order.rules', symbol: info.symbol, rules: rulesOf(info) });
  }, [actor, info]);
  useEffect(() => {
    if (pickedPrice) send({ type: 'order.edit', patch: { price: pickedPrice.price, ...(hasLimitPrice(actor.getSnapshot().context.draft.type) ? {} : { type: 'limit' }) } });
  }, [send, actor, pickedPrice]);
  useEffect(() => {
    if (sideRequest) send({ type: 'order.edit', patch: { side: sideRequest.side } });
  }, [send, sideRequest]);
  useEffect(() => {
    if (state === 'pending' || state === 'filled') onPlaced?.();
  }, [state, onPlaced]);

  const pos = account?.positions.find((p) => p.symbol === info.symbol) ?? null;
  const openOrders = (account?.openOrders ?? []).filter((o) => o.symbol === info.symbol && o.status === 'pending');
  const market: OrderMarket = {
    available: account?.balance?.available ?? available ?? 0,
    lastPrice: lastPrice ?? 0,
    markPrice: markPrice ?? pos?.markPrice ?? null,
    position: pos ? { side: pos.side, qty: pos.qty } : null,
  };
  const rules = rulesOf(info);
  const edit = (patch: Partial<OrderDraft>) => send({ type: 'order.edit', patch });
  const submit = (side: OrderSide) => {
    // NOTE: after a network failure the same button is a retry of the same ticket, so only a
    // side change edits the draft (which starts a new ticket).
    if (draft.side !== side) edit({ side });
    send({ type: 'order.submit', market });
  };
  const cost = estimateCost(draft, market, rules);
  const preview = previewOrder(draft, market.position, rules);
  // What each button does, whatever the side toggle shows (issue 26: the toggle's preview sat right above the other button).
  const previewOf = (side: OrderSide) => (side === draft.side ? preview : previewOrder({ ...draft, side }, market.position, rules));
  // Issue 26: what the balance opens at this price and leverage, and what this order costs (margin + fee).
  const maxOpen = maxQtyFor(draft, market, rules, 100);
  // Short of balance: a Transfer link opens the transfer dialog (fund → this contract's wallet) with the shortfall.
  const [transfer, setTransfer] = useTransferDialog();
  const short = error?.key === 'insufficientBalance' ? shortfall(cost?.required ?? null, market.available) : null;
  // The server's own 'Insufficient Balance' (its figures moved past the panel's check) carries the link too,
  // with the shortfall the panel sees now, or an empty amount when it sees none.
  const serverShort = state === 'rejected' && failure?.msg === TRADE_MSG.insufficientBalance;
  const openTransfer = () => setTransfer({ from: 'fund', to: contract === 'std' ? 'std' : 'perp', coin: info.quote });
  const busy = state === 'submitting';
  const setPct = (pct: number) => edit({ qty: maxQtyFor(draft, market, rules, pct) });

  // Keyboard shortcuts (desktop traders; harmless elsewhere). Not while typing in a field or
  // while a dialog is open; Enter inside the form is handled by the form itself.
  const latest = useRef({ edit, submit, draft, openOrders });
  latest.current = { edit, submit, draft, openOrders };
  useEffect(() => {
    if (!hotkeys) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (isTyping(e.target) || document.querySelector('[role="dialog"]')) return;
      const l = latest.current;
      if (e.key === '?') setHelp(true);
      else if (e.key === 'C' && e.shiftKey) setCancelAsk(true);
      else if (e.shiftKey) return;
      else if (e.key === 'b' || e.key === 'B') l.edit({ side: 'buy' });
      else if (e.key === 's' || e.key === 'S') l.edit({ side: 'sell' });
      else if (e.key === 'p' || e.key === 'P') {
        if (hasLimitPrice(l.draft.type)) priceRef.current?.focus();
        else {
          // The price field exists after the next render (a limit order has one).
          focusPrice.current = true;
          l.edit({ type: 'limit' });
        }
      } else if (e.key === 'a' || e.key === 'A') qtyRef.current?.focus();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [hotkeys]);

  const onFormKey = (e: ReactKeyboardEvent) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const el = e.target as HTMLElement;
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) {
      e.preventDefault();
      if (!busy) submit(draft.side);
    }
  };

  useEffect(() => {
    if (focusPrice.current && priceRef.current) {
      focusPrice.current = false;
      priceRef.current.focus();
    }
  });

  const cancelAll = async () => {
    setCancelAsk(false);
    if (!account) return;
    const results = await Promise.allSettled(openOrders.map((o) => account.api.cancelOrder(o.id)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const bad = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (ok > 0) toast.success(tf('cancelAllDone', { count: ok }));
    if (bad) toast.error(errorMessage(bad.reason));
    account.refresh();
  };

  const tab = tabOf(draft.type);
  const setTab = (k: TypeTab) => edit({ type: k === 'stop' ? (isStop(draft.type) ? draft.type : 'stopMarket') : k });
  const sideLabel = (s: OrderSide) => tf(`side_${s}`);

  return (
    <section className="rf-op rf-of" aria-label={t('orderPanel')} data-state={state} onKeyDown={onFormKey}>
      <div className="rf-op-types" role="tablist" aria-label={t('orderType')}>
        {(['limit', 'market', 'stop'] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={tab === k} className={`rf-tab ${tab === k ? 'is-active' : ''}`} onClick={() => setTab(k)}>
            {k === 'stop' ? tf('stop') : t(k)}
          </button>
        ))}
      </div>

      <div className="rf-of-side" role="radiogroup" aria-label={tf('side')}>
        {(['buy', 'sell'] as const).map((s) => (
          <button
            key={s}
            type="button"
            role="radio"
            aria-checked={draft.side === s}
            className={`rf-of-side__btn rf-of-side__btn--${s} ${draft.side === s ? 'is-active' : ''}`}
            onClick={() => edit({ side: s })}
          >
            {sideLabel(s)}
          </button>
        ))}
      </div>

      {tab === 'stop' && (
        <div className="rf-of-seg" role="radiogroup" aria-label={tf('stopType')}>
          {(['stopMarket', 'stopLimit'] as const).map((k) => (
            <button key={k} type="button" role="radio" aria-checked={draft.type === k} className={`rf-of-seg__btn ${draft.type === k ? 'is-active' : ''}`} onClick={() => edit({ type: k })}>
              {tf(`type_${k}`)}
            </button>
          ))}
        </div>
      )}

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

      {isStop(draft.type) && (
        <div className="rf-of-trigger">
          <label className="rf-op-field">
            <span>
              {tf('triggerPrice')} ({info.quote})
            </span>
            <input inputMode="decimal" value={draft.triggerPrice} aria-label={tf('triggerPrice')} onChange={(e) => edit({ triggerPrice: e.target.value })} />
          </label>
          <label className="rf-op-field">
            <span>{tf('triggerBy')}</span>
            <select className="rf-of-select" value={draft.triggerBy} onChange={(e) => edit({ triggerBy: e.target.value as OrderDraft['triggerBy'] })}>
              {TRIGGER_BY.map((b) => (
                <option key={b} value={b}>
                  {tf(`trigger_${b}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}

      <label className="rf-op-field">
        <span>
          {t('price')} ({info.quote})
        </span>
        {hasLimitPrice(draft.type) ? (
          <input ref={priceRef} inputMode="decimal" value={draft.price} placeholder={t('price')} aria-label={t('price')} onChange={(e) => edit({ price: e.target.value })} />
        ) : (
          <input value={t('marketPrice')} disabled aria-label={t('price')} />
        )}
      </label>
      <label className="rf-op-field">
        <span>
          {t('quantity')} ({info.base})
        </span>
        <input ref={qtyRef} inputMode="decimal" value={draft.qty} placeholder={`${t('min')} ${info.minOrderQuantity}`} aria-label={t('quantity')} onChange={(e) => edit({ qty: e.target.value })} />
      </label>
      <div className="rf-op-pcts">
        {[25, 50, 75, 100].map((p) => (
          <button key={p} type="button" onClick={() => setPct(p)}>
            {p}%
          </button>
        ))}
      </div>

      <fieldset className="rf-of-opts">
        <legend className="rf-sr-only">{tf('options')}</legend>
        <label className="rf-of-check">
          <input type="checkbox" checked={draft.reduceOnly} onChange={(e) => edit({ reduceOnly: e.target.checked })} />
          <span>{tf('reduceOnly')}</span>
        </label>
        {draft.type === 'limit' && (
          <label className="rf-of-check">
            <input type="checkbox" checked={draft.postOnly} onChange={(e) => edit({ postOnly: e.target.checked })} />
            <span>{tf('postOnly')}</span>
          </label>
        )}
        {hasTimeInForce(draft.type) && (
          <label className="rf-of-tif">
            <span>{tf('timeInForce')}</span>
            <select className="rf-of-select" value={draft.timeInForce} onChange={(e) => edit({ timeInForce: e.target.value as OrderDraft['timeInForce'] })}>
              {TIME_IN_FORCE.map((k) => (
                <option key={k} value={k} title={tf(`tifHint_${k}`)}>
                  {tf(`tif_${k}`)} · {tf(`tifHint_${k}`)}
                </option>
              ))}
            </select>
          </label>
        )}
      </fieldset>

      {!draft.reduceOnly && (
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
      )}

      <p className={`rf-of-preview rf-of-preview--${preview.kind}`} data-testid="order-preview" data-kind={preview.kind} aria-live="polite">
        {previewText(preview)}
      </p>

      <dl className="rf-op-est">
        <dt>{t('available')}</dt>
        <dd className="rf-num" data-testid="available">
          {available === null ? '--' : formatBalance(account?.balance?.available ?? available, info.quote)} {info.quote}
        </dd>
        <dt>{t('margin')}</dt>
        <dd className="rf-num">
          {cost ? formatNumber(cost.margin, 2) : '--'} {info.quote}
        </dd>
        <dt>{t('feeEstimate')}</dt>
        <dd className="rf-num">
          {cost ? formatNumber(cost.fee, 4) : '--'} {info.quote}
        </dd>
        <dt>{t('orderCost')}</dt>
        <dd className="rf-num" data-testid="order-cost">
          {cost ? formatNumber(formatScaled(cost.required, 6), 2) : '--'} {info.quote}
        </dd>
        <dt>{t('maxOpen')}</dt>
        <dd className="rf-num" data-testid="order-max-open">
          {maxOpen ? formatNumber(maxOpen, info.qtyPrecision) : '--'} {info.base}
        </dd>
      </dl>

      {error && (
        <p className="rf-op-error" role="alert" data-testid="order-error">
          {errorText(error)}
          {short !== null && (
            <>
              {' '}
              <button type="button" className="rf-link" data-testid="order-transfer" onClick={openTransfer}>
                {t('assets:transfer')}
              </button>
            </>
          )}
        </p>
      )}
      {transfer !== null && (
        <OrderTransfer target={transfer} amount={short ?? (serverShort ? (shortfall(cost?.required ?? null, market.available) ?? '') : '')} onClose={() => setTransfer(null)} onDone={() => account?.refresh()} />
      )}
      <OrderStatusLine state={state} failure={failure ? serverText(failure.msg) : null} onRetry={() => send({ type: 'order.retry' })} onTransfer={serverShort ? openTransfer : undefined} />

      <div className="rf-op-actions">
        <Button variant="up" block pending={busy && draft.side === 'buy'} disabled={busy} onClick={() => submit('buy')} aria-keyshortcuts="B">
          {t('buyLong')}
        </Button>
        <Button variant="down" block pending={busy && draft.side === 'sell'} disabled={busy} onClick={() => submit('sell')} aria-keyshortcuts="S">
          {t('sellShort')}
        </Button>
        {(['buy', 'sell'] as const).map((side) => {
          const p = previewOf(side);
          return (
            <p key={side} className={`rf-op-action-preview rf-of-preview--${p.kind}`} data-testid={`button-preview-${side}`} data-kind={p.kind}>
              {previewText(p)}
            </p>
          );
        })}
      </div>
      {hotkeys && (
        <button type="button" className="rf-link rf-of-help" onClick={() => setHelp(true)} aria-keyshortcuts="?">
          {tf('shortcutsHint')}
        </button>
      )}

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
      <HotkeysHelp open={help} onClose={() => setHelp(false)} />
      <Modal
        open={cancelAsk}
        onClose={() => setCancelAsk(false)}
        title={tf('cancelAllTitle')}
        footer={
          openOrders.length > 0 ? (
            <>
              <Button variant="secondary" onClick={() => setCancelAsk(false)}>
                {tf('keepOrders')}
              </Button>
              <Button variant="primary" onClick={cancelAll}>
                {tf('cancelAllConfirm')}
              </Button>
            </>
          ) : (
            <Button variant="secondary" onClick={() => setCancelAsk(false)}>
              {tf('close')}
            </Button>
          )
        }
      >
        <p>{openOrders.length > 0 ? tf('cancelAllBody', { count: openOrders.length, symbol: info.symbol }) : tf('cancelAllNone')}</p>
      </Modal>
    </section>
  );
}

/** The shortcuts of the trade screen, listed in a Modal (focus kept inside, returned on close). */
export const HOTKEYS = [
  { keys: ['B'], what: 'hk_buy' },
  { keys: ['S'], what: 'hk_sell' },
  { keys: ['P'], what: 'hk_price' },
  { keys: ['A'], what: 'hk_amount' },
  { keys: ['Enter'], what: 'hk_submit' },
  { keys: ['Shift', 'C'], what: 'hk_cancelAll' },
  { keys: ['?'], what: 'hk_help' },
] as const;

function HotkeysHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('orderForm');
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('shortcuts')}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('close')}
        </Button>
      }
    >
      <dl className="rf-of-keys" data-testid="hotkeys">
        {HOTKEYS.map((h) => (
          <div key={h.what} className="rf-of-keys__row">
            <dt>
              {h.keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && ' + '}
                  <kbd>{k}</kbd>
                </span>
              ))}
            </dt>
            <dd>{t(h.what)}</dd>
          </div>
        ))}
      </dl>
      <p className="rf-of-keys__note">{t('hk_note')}</p>
    </Modal>
  );
}

function OrderStatusLine({ state, failure, onRetry, onTransfer }: { state: string; failure: string | null; onRetry: () => void; onTransfer?: (() => void) | undefined }) {
  const { t } = useTranslation('trade');
  switch (state) {
    case 'submitting':
      return <p className="rf-op-status">{t('st_submitting')}</p>;
    case 'pending':
      return (
        <p className="rf-op-status" role="status">
          {t('st_pending')}
        </p>
      );
    case 'filled':
      return (
        <p className="rf-op-status rf-up" role="status">
          {t('st_filled')}
        </p>
      );
    case 'canceled':
      return (
        <p className="rf-op-status" role="status">
          {t('st_canceled')}
        </p>
      );
    case 'rejected':
      return (
        <p className="rf-op-error" role="alert" data-testid="order-rejected">
          {t('st_rejected')}: {failure}
          {onTransfer ? (
            <>
              {' '}
              <button type="button" className="rf-link" data-testid="order-transfer" onClick={onTransfer}>
                {t('assets:transfer')}
              </button>
            </>
          ) : null}
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

/**
 * What the order lacks, as the amount to transfer in (issue 26): `required` (scaled margin + fee)
 * minus the available balance, rounded up to the quote's minor unit (6 decimals), as a plain
 * decimal string; null when nothing is missing or a figure is unknown.
 */
export function shortfall(required: bigint | null, available: string | number | null | undefined): string | null {
  const a = available === null || available === undefined ? null : parseScaled(String(available));
  if (required === null || a === null) return null;
  const need = required - a;
  if (need <= 0n) return null;
  const unit = 10n ** BigInt(SCALE - 6);
  const up = ((need + unit - 1n) / unit) * unit;
  const text = formatScaled(up, 6);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** The transfer dialog opened from the order panel, with the live balances (read only while it is open). */
function OrderTransfer({ target, amount, onClose, onDone }: { target: TransferTarget; amount: string; onClose: () => void; onDone: () => void }) {
  const balances = useBalances();
  return (
    <TransferDialog
      target={target}
      amount={amount}
      book={balances.book}
      onClose={onClose}
      onDone={() => {
        balances.refresh();
        onDone();
      }}
    />
  );
}
