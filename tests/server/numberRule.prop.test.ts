import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADE_MSG } from '../../src/protocol/trading.ts';
import type { Order, Position } from '../../src/protocol/trading.ts';
import { call } from './harness.ts';
import { startTrading } from './tradeHarness.ts';
import type { TradeHarness } from './tradeHarness.ts';

/**
 * Issue 29, the one number rule over real HTTP: every price, quantity and leverage field of the
 * order, edit, close and TP/SL calls refuses odd inputs (exponent, hex, sign, arrays, booleans,
 * objects, blanks, zero, prices below or off the tick...) with an envelope error and its own
 * message, and nothing moves: no order, position, balance or ledger row changes.
 */

let t: TradeHarness;
let positionId = '';
let pendingId = '';
const PRICE = 60_000;

beforeAll(async () => {
  t = await startTrading('numbers@example.com');
  await t.move('BTCUSDT', PRICE);
  const opened = await t.place({ kind: 'marketOpen', side: 'buy', qty: '0.1', leverage: 10 });
  expect(opened.code, opened.msg).toBe(200);
  const pending = await t.place({ kind: 'limitOpen', side: 'buy', price: '50000', qty: '0.01', leverage: 10 });
  expect(pending.code, pending.msg).toBe(200);
  pendingId = String(pending.data.id);
  positionId = (await t.positions())[0]?.id ?? '';
  expect(positionId).not.toBe('');
});
afterAll(async () => t.close());

/** Everything a call could move: orders, positions, balances and the ledger of the whole database. */
async function snapshot(): Promise<string> {
  const db = t.h.db;
  const [orders, positions, balances, ledger] = await Promise.all([
    db.selectFrom('trade_orders').selectAll().orderBy('id').execute(),
    db.selectFrom('trade_positions').selectAll().orderBy('id').execute(),
    db.selectFrom('balances').selectAll().execute(),
    db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  const sortedBalances = balances.map((b) => JSON.stringify(b)).sort();
  return JSON.stringify({ orders, positions, sortedBalances, ledger: Number(ledger?.n ?? 0) });
}

/** Inputs no number field may take. Strings are checked by an oracle independent of the server's module. */
const PLAIN = /^\d+(\.\d+)?$/;
const oddStrings = fc.oneof(
  fc.constantFrom(
    '0x10', '0X1f', '1e3', '1E-9', '1e+3', '6e4', '-5', '+5', '.5', '5.', '', ' ', 'Infinity', '-Infinity', 'NaN',
    '1_000', '1,000', '5 5', '0b101', '0o17', '١٢٣', '５', '60000\u0000', '0', '0.0', '-0', '00', '0.0000000001',
    '1'.repeat(50), '60000.05', '60000.123456789', '9007199254740993', '123456789012345678', 'null', 'true', '[5]',
  ),
  fc.string({ maxLength: 12 }).filter((s) => !PLAIN.test(s.trim()) || /^0*(\.0*)?$/.test(s.trim())),
);
const oddValues: fc.Arbitrary<unknown> = fc.oneof(
  oddStrings,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constant('5')), { minLength: 1, maxLength: 2 }),
  fc.dictionary(fc.constantFrom('$gt', 'value', '0'), fc.integer(), { minKeys: 1, maxKeys: 2 }),
  fc.integer({ min: -1_000_000, max: 0 }),
  fc.integer({ min: 1, max: 999 }).map((k) => k * 1e-9),
  fc.double({ min: -1e6, max: 0, noNaN: true }),
);

interface Case {
  name: string;
  path: string;
  body: Record<string, unknown>;
  /** The messages (or message prefixes) the field may answer with. */
  fields: Record<string, readonly string[]>;
}

const PRICE_MSGS = [TRADE_MSG.priceStep];
const QTY_MSGS = [TRADE_MSG.minOrderQuantity, TRADE_MSG.qtyStep, TRADE_MSG.maxOrderQuantity];

function cases(): Case[] {
  return [
    {
      name: 'order (limit open)',
      path: '/trade/order',
      body: { clientOrderId: 'odd-limit', symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: '55000', qty: '0.01', leverage: 10, tp: '70000', sl: '50000' },
      fields: {
        price: [TRADE_MSG.limitPriceRequired, ...PRICE_MSGS],
        qty: QTY_MSGS,
        leverage: [TRADE_MSG.leverageWhole, TRADE_MSG.leverageRange],
        tp: [TRADE_MSG.tpInvalid, ...PRICE_MSGS],
        sl: [TRADE_MSG.slInvalid, ...PRICE_MSGS],
      },
    },
    {
      name: 'order (stop market)',
      path: '/trade/order',
      body: { clientOrderId: 'odd-stop', symbol: 'BTCUSDT', contract: 'perp', kind: 'stopMarket', side: 'buy', triggerPrice: '65000', qty: '0.01', leverage: 10 },
      fields: { triggerPrice: [TRADE_MSG.triggerPriceRequired, TRADE_MSG.wouldTriggerImmediately, ...PRICE_MSGS] },
    },
    {
      name: 'edit',
      path: '/trade/order/edit',
      body: { orderId: '', price: '51000', qty: '0.02' },
      fields: { price: [TRADE_MSG.limitPriceRequired, TRADE_MSG.editNothing, ...PRICE_MSGS], qty: [...QTY_MSGS, TRADE_MSG.editNothing] },
    },
    {
      name: 'close',
      path: '/trade/position/close',
      body: { positionId: '', qty: '0.05', price: '70000', clientOrderId: 'odd-close' },
      fields: { qty: QTY_MSGS, price: [TRADE_MSG.limitPriceRequired, ...PRICE_MSGS] },
    },
    {
      name: 'TP/SL',
      path: '/trade/position/tpsl',
      body: { positionId: '', tp: '70000', sl: '50000' },
      fields: { tp: [TRADE_MSG.tpInvalid, ...PRICE_MSGS], sl: [TRADE_MSG.slInvalid, ...PRICE_MSGS] },
    },
  ];
}

function withIds(c: Case): Record<string, unknown> {
  const body = { ...c.body };
  if ('orderId' in body) body.orderId = pendingId;
  if ('positionId' in body) body.positionId = positionId;
  return body;
}

/** A null or absent optional price means "none"; the property is about values that are there. */
function meaningful(field: string, v: unknown): boolean {
  const optional = ['tp', 'sl', 'price', 'triggerPrice'].includes(field);
  return !(optional && (v === null || (typeof v === 'string' && v.trim() === '')));
}

describe('the number rule on the order calls, over HTTP', () => {
  const all = cases();
  const pairs = all.flatMap((c) => Object.entries(c.fields).map(([field, msgs]) => ({ c, field, msgs })));

  it('every odd value of every price, quantity and leverage field is refused with its message, and nothing moves', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pairs), oddValues, async ({ c, field, msgs }, value) => {
        fc.pre(meaningful(field, value));
        const r = await call(t.h, c.path, { token: t.token, body: { ...withIds(c), [field]: value } });
        expect(r.code, `${c.name} ${field}=${JSON.stringify(value)}: ${r.msg}`).toBe(400);
        expect(r.data).toBeNull();
        expect(msgs.some((m) => r.msg.startsWith(m)), `${c.name} ${field}=${JSON.stringify(value)} answered '${r.msg}'`).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(await snapshot()).toBe(before);
  });

  it("the issue's examples, one by one", async () => {
    const before = await snapshot();
    const limit = (price: unknown, extra: Record<string, unknown> = {}) =>
      call(t.h, '/trade/order', { token: t.token, body: { clientOrderId: 'issue-ex', symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price, qty: '0.01', leverage: 10, ...extra } });
    expect((await limit('0.0000000001')).msg).toBe(`${TRADE_MSG.priceStep}0.1`);
    expect((await limit(1e-10)).msg).toBe(`${TRADE_MSG.priceStep}0.1`);
    expect((await limit('30000.05')).msg).toBe(`${TRADE_MSG.priceStep}0.1`);
    expect((await limit('0x10')).msg).toBe(TRADE_MSG.limitPriceRequired);
    expect((await limit('1e3')).msg).toBe(TRADE_MSG.limitPriceRequired);
    for (const leverage of [[5], true, '0x10', '5.5', -5, '1e1']) expect((await limit('50000', { leverage })).msg, JSON.stringify(leverage)).toBe(TRADE_MSG.leverageWhole);
    expect((await limit('50000', { leverage: 126 })).msg).toBe(`${TRADE_MSG.leverageRange}1-125`);
    const edit = await call(t.h, '/trade/order/edit', { token: t.token, body: { orderId: pendingId, price: '1e-9' } });
    expect(edit.msg).toBe(TRADE_MSG.limitPriceRequired);
    const editTiny = await call(t.h, '/trade/order/edit', { token: t.token, body: { orderId: pendingId, price: 1e-9 } });
    expect(editTiny.msg).toBe(`${TRADE_MSG.priceStep}0.1`);
    expect(await snapshot()).toBe(before);
  });

  it('the base bodies themselves are accepted (so the refusals above come from the odd field)', async () => {
    for (const c of cases()) {
      const r = await call<Order | Position>(t.h, c.path, { token: t.token, body: withIds(c) });
      expect(r.code, `${c.name}: ${r.msg}`).toBe(200);
    }
    // JSON numbers and plain decimal strings alike, leverage as a number or digits.
    const r = await t.place({ kind: 'limitOpen', side: 'buy', price: 49_000.5, qty: 0.01, leverage: '20' });
    expect(r.code, r.msg).toBe(200);
    expect([r.data.price, r.data.qty, r.data.leverage]).toEqual([49_000.5, 0.01, 20]);
  });
});
