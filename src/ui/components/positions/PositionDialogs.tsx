import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { useTranslation } from 'react-i18next';
import { addThousandsSeparators, formatNumber } from '../../../format/number.ts';
import { formatScaled, parseScaled, sumDecimals } from '../../../protocol/decimal.ts';
import { CLOSE_PERCENTS, closePnl, qtyUnitsOf, roundScaled, type ClosePercent } from '../../../protocol/positionMath.ts';
import { checkClose, type CloseProblem } from '../../../machines/closeMachine.ts';
import type { CloseContext, CloseMode } from '../../../machines/closeMachine.ts';
import type { TpslContext } from '../../../machines/tpslMachine.ts';
import type { Order, Position } from '../../../protocol/trading.ts';
import { orderEdits, orderLimitPrice, orderTrigger, TPSL_KINDS } from '../../../protocol/orderView.ts';
import type { TFunction } from 'i18next';
import type { OrderPatch } from '../../../core/tradingApi.ts';
import { Button } from '../Button.tsx';
import { Modal } from '../Modal.tsx';
import './positions.css';

/**
 * The position dialogs of the trade screen's account panel (issue 14): close (market / limit,
 * amount or 25/50/75/100 %, the figures it will do, 'Do not ask again'), close all, TP/SL (entry,
 * mark, liquidation, the PnL at each trigger, refusals on the wrong side of the mark) and the
 * open-order edit. Close and TP/SL are views of the core's machines (src/machines/closeMachine.ts,
 * tpslMachine.ts): they render the context and send intents. Every figure is exact (decimal.ts).
 */

const QTY_PROBLEMS: readonly CloseProblem[] = ['qtyRequired', 'qtyTooLarge', 'qtyMin', 'qtyStep'];

/** A scaled amount as money: 2 decimals, grouping, a sign on gains. */
export function moneyText(v: bigint | null): string {
  if (v === null) return '--';
  const s = addThousandsSeparators(roundScaled(v, 2));
  return v > 0n ? `+${s}` : s;
}

const pnlClass = (v: bigint | null) => (v === null || v === 0n ? '' : v > 0n ? 'rf-up' : 'rf-down');

/** A decimal string at exactly `dp` digits, grouped, without a float on the way. */
export function exactText(text: string, dp: number): string {
  const v = parseScaled(text);
  return v === null ? '--' : addThousandsSeparators(formatScaled(v, dp));
}

interface Figure {
  label: string;
  value: string;
  cls?: string;
  testId: string;
}

function Figures({ items }: { items: Figure[] }) {
  return (
    <dl className="rf-pd-figures">
      {items.map((f) => (
        <div key={f.testId}>
          <dt>{f.label}</dt>
          <dd className={`rf-num ${f.cls ?? ''}`} data-testid={f.testId}>
            {f.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export interface CloseDialogProps {
  ctx: CloseContext;
  pending: boolean;
  base: string;
  onMode: (mode: CloseMode) => void;
  onQty: (text: string) => void;
  onPct: (pct: ClosePercent) => void;
  onPrice: (text: string) => void;
  onDontAsk: (on: boolean) => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Close one position: the form and its confirmation in one step. */
export function CloseDialog({ ctx, pending, base, onMode, onQty, onPct, onPrice, onDontAsk, onConfirm, onCancel }: CloseDialogProps) {
  const { t } = useTranslation('positions');
  const p = ctx.position;
  const r = ctx.rules;
  if (!p || !r) return null;
  const limit = ctx.mode === 'limit';
  const estPrice = limit ? ctx.price.trim() : String(p.markPrice);
  // No estimate for a quantity the close would refuse (more than the position, below the minimum, off the step).
  const qtyProblem = QTY_PROBLEMS.includes(checkClose({ ...ctx, mode: 'market' }) ?? 'noPosition');
  const pnl = estPrice === '' || qtyProblem ? null : closePnl(p, ctx.qty.trim() || '0', estPrice);
  // A quantity finer than the precision is shown as typed, not cut to 0.000.
  const qtyShown = ctx.qty.trim() !== '' && qtyUnitsOf(ctx.qty, r.qtyPrecision) === null && /^\d+(\.\d+)?$/.test(ctx.qty.trim()) ? ctx.qty.trim() : exactText(ctx.qty, r.qtyPrecision);
  const problem = ctx.problem
    ? t(`p_${ctx.problem}`, { min: r.minOrderQuantity, step: r.qtyStep, tick: r.tickSize })
    : null;
  return (
    <Modal
      open
      onClose={onCancel}
      title={t('closeTitle', { symbol: p.symbol, side: t(`trade:${p.side}`) })}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {t('common:cancel')}
          </Button>
          <Button onClick={onConfirm} pending={pending} data-testid="close-confirm">
            {t('confirm')}
          </Button>
        </>
      }
    >
      <div className="rf-pd">
        <div className="rf-pd-seg" role="radiogroup" aria-label={t('closeMode')}>
          {(['market', 'limit'] as const).map((m) => (
            <button key={m} type="button" role="radio" aria-checked={ctx.mode === m} disabled={pending} className={`rf-pd-seg__item${ctx.mode === m ? ' is-active' : ''}`} onClick={() => onMode(m)}>
              {t(m)}
            </button>
          ))}
        </div>
        {limit && (
          <label className="rf-pd-field">
            <span>{t('price')}</span>
            <input inputMode="decimal" value={ctx.price} disabled={pending} onChange={(e) => onPrice(e.target.value)} />
          </label>
        )}
        <label className="rf-pd-field">
          <span>{t('amount', { base })}</span>
          <input inputMode="decimal" value={ctx.qty} disabled={pending} onChange={(e) => onQty(e.target.value)} />
        </label>
        <div className="rf-pd-pcts">
          {CLOSE_PERCENTS.map((pct) => (
            <button key={pct} type="button" className="rf-pd-pct" aria-pressed={ctx.pct === pct} aria-label={t('percentOf', { pct })} disabled={pending} onClick={() => onPct(pct)}>
              {pct}%
            </button>
          ))}
        </div>
        <Figures
          items={[
            { label: t('quantity'), value: `${qtyShown} ${base}`, testId: 'close-qty' },
            {
              label: t('estPrice'),
              value: estPrice === '' ? '--' : t(limit ? 'estPriceLimit' : 'estPriceMark', { price: exactText(estPrice, r.pricePrecision) }),
              testId: 'close-price',
            },
            { label: t('estPnl'), value: `${moneyText(pnl)} USDT`, cls: pnlClass(pnl), testId: 'close-pnl' },
          ]}
        />
        {problem && (
          <p className="rf-pd-error" role="alert">
            {problem}
          </p>
        )}
        {ctx.serverError && (
          <p className="rf-pd-error" role="alert">
            {ctx.serverError}
          </p>
        )}
        <label className="rf-pd-check">
          <input type="checkbox" checked={ctx.dontAsk} disabled={pending} onChange={(e) => onDontAsk(e.target.checked)} />
          <span>{t('dontAsk')}</span>
        </label>
      </div>
    </Modal>
  );
}

/** Close every position of the account (market), with the summed estimate. */
export function CloseAllDialog({
  positions,
  dontAsk,
  pending,
  onDontAsk,
  onConfirm,
  onCancel,
}: {
  positions: readonly Position[];
  dontAsk: boolean;
  pending: boolean;
  onDontAsk: (on: boolean) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('positions');
  const pnl = sumDecimals(positions.map((p) => p.unrealizedPnl));
  return (
    <Modal
      open
      onClose={onCancel}
      title={t('closeAllTitle')}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t('common:cancel')}
          </Button>
          <Button onClick={onConfirm} pending={pending} data-testid="close-all-confirm">
            {t('confirm')}
          </Button>
        </>
      }
    >
      <div className="rf-pd">
        <p>{t('closeAllText', { count: positions.length })}</p>
        <Figures items={[{ label: t('closeAllPnl'), value: `${moneyText(pnl)} USDT`, cls: pnlClass(pnl), testId: 'close-all-pnl' }]} />
        <label className="rf-pd-check">
          <input type="checkbox" checked={dontAsk} onChange={(e) => onDontAsk(e.target.checked)} />
          <span>{t('dontAsk')}</span>
        </label>
      </div>
    </Modal>
  );
}

/** TP/SL of a position with the figures it works from and the PnL at each trigger. */
export function TpslDialog({
  ctx,
  pending,
  base,
  onTp,
  onSl,
  onSave,
  onCancel,
}: {
  ctx: TpslContext;
  pending: boolean;
  base: string;
  onTp: (text: string) => void;
  onSl: (text: string) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('positions');
  const p = ctx.position;
  const r = ctx.rules;
  if (!p || !r) return null;
  const pp = r.pricePrecision;
  const at = (text: string) => (text.trim() === '' || parseScaled(text) === null ? null : closePnl(p, p.qty, text.trim()));
  const tpPnl = at(ctx.tp);
  const slPnl = at(ctx.sl);
  const problem = (k: 'tp' | 'sl') => {
    const key = ctx.problems[k];
    return key ? t(`t_${key}`, { mark: formatNumber(ctx.checkedMark ?? p.markPrice, pp), tick: r.tickSize }) : null;
  };
  const field = (k: 'tp' | 'sl', label: string, value: string, on: (v: string) => void, pnl: bigint | null, pnlLabel: string) => {
    const msg = problem(k);
    const id = `rf-tpsl-${k}-err`;
    return (
      <div className="rf-pd-trigger">
        <label className="rf-pd-field">
          <span>{label}</span>
          <input inputMode="decimal" value={value} disabled={pending} aria-invalid={msg ? true : undefined} aria-describedby={msg ? id : undefined} onChange={(e) => on(e.target.value)} />
        </label>
        <p className="rf-pd-sub">
          {pnlLabel}:{' '}
          <span className={`rf-num ${pnlClass(pnl)}`} data-testid={`tpsl-${k}-pnl`}>
            {pnl === null ? '--' : `${moneyText(pnl)} USDT`}
          </span>
        </p>
        {msg && (
          <p className="rf-pd-error" role="alert" id={id} data-testid={`tpsl-${k}-error`}>
            {msg}
          </p>
        )}
      </div>
    );
  };
  return (
    <Modal
      open
      onClose={onCancel}
      title={t('tpslTitle', { symbol: p.symbol, side: t(`trade:${p.side}`) })}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {t('common:cancel')}
          </Button>
          <Button onClick={onSave} pending={pending}>
            {t('trade:save')}
          </Button>
        </>
      }
    >
      <div className="rf-pd">
        <Figures
          items={[
            { label: t('size'), value: `${formatNumber(p.qty, 8).replace(/\.?0+$/, '')} ${base}`, testId: 'tpsl-size' },
            { label: t('entryPrice'), value: formatNumber(p.entryPrice, pp), testId: 'tpsl-entry' },
            { label: t('markPrice'), value: formatNumber(p.markPrice, pp), testId: 'tpsl-mark' },
            { label: t('liqPrice'), value: formatNumber(p.liquidationPrice, pp), testId: 'tpsl-liq' },
          ]}
        />
        {field('tp', t('trade:takeProfit'), ctx.tp, onTp, tpPnl, t('pnlAtTp'))}
        {field('sl', t('trade:stopLoss'), ctx.sl, onSl, slPnl, t('pnlAtSl'))}
        <p className="rf-pd-sub">{t('tpslHint')}</p>
        {ctx.serverError && (
          <p className="rf-pd-error" role="alert">
            {ctx.serverError}
          </p>
        )}
      </div>
    </Modal>
  );
}

/** Edits a pending order's price and quantity in place (POST /trade/order/edit, same id). */
/** The toast of a saved edit: size and price, or size and trigger for a stop-market. */
export function editedText(t: TFunction, o: Order, base: string, pricePrecision: number, qtyPrecision: number): string {
  const qty = formatNumber(o.qty, qtyPrecision);
  const limit = orderLimitPrice(o);
  const trigger = orderTrigger(o);
  if (limit === null && trigger) return t('positions:editedTrigger', { qty, base, trigger: formatNumber(trigger.price, pricePrecision) });
  return t('positions:edited', { qty, base, price: formatNumber(o.price, pricePrecision) });
}

export function EditOrderDialog({
  order,
  base,
  pricePrecision,
  qtyPrecision,
  onSave,
  onClose,
}: {
  order: Order;
  base: string;
  pricePrecision: number;
  qtyPrecision: number;
  /** Resolves when saved; rejects with the server's message. */
  onSave: (patch: OrderPatch) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('positions');
  // What this order lets the user change (issue 26: a stop's trigger, a TP/SL order's price = its trigger).
  const edits = orderEdits(order) ?? { price: false, trigger: false, qty: false };
  const trigger = orderTrigger(order);
  const startPrice = order.price.toFixed(pricePrecision);
  const startTrigger = (order.triggerPrice ?? 0).toFixed(pricePrecision);
  const startQty = order.qty.toFixed(qtyPrecision);
  const [price, setPrice] = useState(startPrice);
  const [triggerText, setTrigger] = useState(startTrigger);
  const [qty, setQty] = useState(startQty);
  const [error, setError] = useState<string | null>(null);
  const same = (a: string, b: string) => {
    const x = parseScaled(a);
    return x !== null && x === parseScaled(b);
  };
  const tpsl = TPSL_KINDS.includes(order.kind);
  const save = async () => {
    const patch: OrderPatch = {};
    if (edits.price && !same(price, startPrice)) patch.price = price.trim();
    if (edits.trigger && !same(triggerText, startTrigger)) patch.triggerPrice = triggerText.trim();
    if (edits.qty && !same(qty, startQty)) patch.qty = qty.trim();
    if (patch.price === undefined && patch.qty === undefined && patch.triggerPrice === undefined) {
      setError(t('editNothing'));
      return;
    }
    try {
      await onSave(patch);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('editTitle', { symbol: order.symbol })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button onClick={save} data-testid="edit-order-save">
            {t('trade:save')}
          </Button>
        </>
      }
    >
      <div className="rf-pd">
        {edits.trigger && trigger && (
          <label className="rf-pd-field">
            <span>{t('editTrigger', { by: t(`triggerBy_${trigger.by}`) })}</span>
            <input inputMode="decimal" value={triggerText} onChange={(e) => (setTrigger(e.target.value), setError(null))} data-testid="edit-order-trigger" />
          </label>
        )}
        {edits.price && (
          <label className="rf-pd-field">
            <span>{tpsl ? t('editTrigger', { by: t('triggerBy_mark') }) : t('editPrice')}</span>
            <input inputMode="decimal" value={price} onChange={(e) => (setPrice(e.target.value), setError(null))} data-testid="edit-order-price" />
          </label>
        )}
        <label className="rf-pd-field">
          <span>{t('editQty', { base })}</span>
          <input inputMode="decimal" value={qty} onChange={(e) => (setQty(e.target.value), setError(null))} />
        </label>
        {error && (
          <p className="rf-pd-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </Modal>
  );
}
