import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { checkClose, closeMachine, type CloseRequest, type CloseRules } from '../../src/machines/closeMachine.ts';
import { toUnits } from '../../src/protocol/netting.ts';
import type { Order, Position } from '../../src/protocol/trading.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the close machine (src/machines/closeMachine.ts) over random interleavings of
 * opens (quick or not, with confirmations on or off), form edits, percentages, (double) confirms,
 * cancels, live position updates and server answers:
 * - at most one request per confirm (a double click sends once) and never two in flight;
 * - a request starts only on a confirm, or on a quick close / close all with its confirmation off;
 * - the quantity sent is on the step, at least the minimum and never above the position as the
 *   dialog showed it (the whole position goes without a quantity); a limit close carries a price on the tick;
 * - 'Do not ask again' is stored only by a confirm with the box ticked, and then the next quick close sends without asking.
 */


const RULES: CloseRules = { qtyPrecision: 3, qtyStep: 0.001, minOrderQuantity: 0.001, pricePrecision: 1, tickSize: 0.5 };
const RULES_STEP5: CloseRules = { qtyPrecision: 3, qtyStep: 0.005, minOrderQuantity: 0.01, pricePrecision: 2, tickSize: 0.01 };

function position(qty: number): Position {
  return {
    id: 'P1', symbol: 'BTCUSDT', contract: 'perp', side: 'long', qty, entryPrice: 60000, markPrice: 61000.5, liquidationPrice: 55000,
    margin: '600', marginRatio: 0.1, unrealizedPnl: String(qty * 1000.5), returnPct: 1, tp: null, sl: null, leverage: 10, openedAt: 1, updatedAt: 1,
  };
}
const order = (id: string): Order => ({
  id, clientOrderId: id, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketClose', side: 'sell', price: 0, qty: 0.01, leverage: 10, status: 'filled',
  executedQty: 0.01, avgPrice: 61000, fee: '0', realizedPnl: '0', margin: '0', positionId: 'P1', tp: null, sl: null, createdAt: 1, updatedAt: 1,
});

type Cmd =
  | { k: 'open'; quick: boolean; qty: number; step5: boolean }
  | { k: 'pct'; pct: 25 | 50 | 75 | 100 }
  | { k: 'qty'; text: string }
  | { k: 'mode'; mode: 'market' | 'limit' }
  | { k: 'price'; text: string }
  | { k: 'dontAsk'; on: boolean }
  | { k: 'confirm' | 'doubleConfirm' | 'cancel' | 'allOpen' | 'allConfirm' | 'allCancel' }
  | { k: 'live'; qty: number }
  | { k: 'answer'; ok: boolean }
  | { k: 'prefs'; close: boolean; all: boolean };

const qtyArb = fc.constantFrom(0.001, 0.01, 0.013, 0.02, 0.1, 1.234);
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('open' as const), quick: fc.boolean(), qty: qtyArb, step5: fc.boolean() }),
  fc.record({ k: fc.constant('pct' as const), pct: fc.constantFrom(25 as const, 50 as const, 75 as const, 100 as const) }),
  fc.record({ k: fc.constant('qty' as const), text: fc.constantFrom('', '0', '0.001', '0.005', '0.0105', '0.01', '0.02', '5', 'abc', '0.0071') }),
  fc.record({ k: fc.constant('mode' as const), mode: fc.constantFrom('market' as const, 'limit' as const) }),
  fc.record({ k: fc.constant('price' as const), text: fc.constantFrom('', '65000', '65000.5', '65000.25', '-1', 'x') }),
  fc.record({ k: fc.constant('dontAsk' as const), on: fc.boolean() }),
  fc.constantFrom(...(['confirm', 'confirm', 'doubleConfirm', 'cancel', 'allOpen', 'allConfirm', 'allCancel'] as const).map((k) => ({ k }))),
  fc.record({ k: fc.constant('live' as const), qty: qtyArb }),
  fc.record({ k: fc.constant('answer' as const), ok: fc.boolean() }),
  fc.record({ k: fc.constant('prefs' as const), close: fc.boolean(), all: fc.boolean() }),
);
/** A user who closes half with the dialog (so every run reaches the server). */
const happy: Cmd[] = [{ k: 'open', quick: true, qty: 0.02, step5: false }, { k: 'pct', pct: 50 }, { k: 'doubleConfirm' }, { k: 'answer', ok: true }];
const cmdsArb = fc
  .array(fc.oneof({ arbitrary: cmdArb.map((c) => [c]), weight: 6 }, { arbitrary: fc.constant(happy), weight: 1 }), { minLength: 3, maxLength: 30 })
  .map((g) => g.flat());

describe('closeMachine properties', () => {
  it('one request per confirm, never two in flight, never more than the position, prefs only from a ticked confirm', async () => {
    let sentTotal = 0;
    await fc.assert(
      fc.asyncProperty(cmdsArb, async (cmds) => {
        const prefs = { confirmClose: true, confirmCloseAll: true };
        const saved: { kind: string }[] = [];
        const inflight: { input: CloseRequest | null; resolve: (o: unknown) => void; reject: (e: Error) => void }[] = [];
        let started = 0;
        let n = 0;
        const actor = createActor(
          closeMachine.provide({
            actors: {
              close: fromPromise<Order, CloseRequest>(({ input }) => new Promise((resolve, reject) => {
                started += 1;
                inflight.push({ input, resolve: resolve as (o: unknown) => void, reject });
              })),
              closeAll: fromPromise<Order[], void>(() => new Promise((resolve, reject) => {
                started += 1;
                inflight.push({ input: null, resolve: resolve as (o: unknown) => void, reject });
              })),
            },
            guards: { confirmClose: () => prefs.confirmClose, confirmCloseAll: () => prefs.confirmCloseAll },
            actions: {
              savePref: (_, p: { kind: 'close' | 'closeAll'; dontAsk: boolean }) => {
                if (!p.dontAsk) return;
                saved.push({ kind: p.kind });
                if (p.kind === 'close') prefs.confirmClose = false;
                else prefs.confirmCloseAll = false;
              },
            },
          }),
          { input: { newId: () => `id${++n}` } },
        );
        actor.start();
        for (const c of cmds) {
          const before = actor.getSnapshot();
          const startedBefore = started;
          const savedBefore = saved.length;
          switch (c.k) {
            case 'open': actor.send({ type: 'close.open', position: position(c.qty), rules: c.step5 ? RULES_STEP5 : RULES, quick: c.quick }); break;
            case 'pct': actor.send({ type: 'close.pct', pct: c.pct }); break;
            case 'qty': actor.send({ type: 'close.qty', text: c.text }); break;
            case 'mode': actor.send({ type: 'close.mode', mode: c.mode }); break;
            case 'price': actor.send({ type: 'close.price', text: c.text }); break;
            case 'dontAsk': actor.send({ type: 'close.dontAsk', on: c.on }); actor.send({ type: 'closeAll.dontAsk', on: c.on }); break;
            case 'confirm': actor.send({ type: 'close.confirm' }); break;
            case 'doubleConfirm': actor.send({ type: 'close.confirm' }); actor.send({ type: 'close.confirm' }); break;
            case 'cancel': actor.send({ type: 'close.cancel' }); break;
            case 'allOpen': actor.send({ type: 'closeAll.open', count: 2 }); break;
            case 'allConfirm': actor.send({ type: 'closeAll.confirm' }); actor.send({ type: 'closeAll.confirm' }); break;
            case 'allCancel': actor.send({ type: 'closeAll.cancel' }); break;
            case 'live': actor.send({ type: 'close.position', position: position(c.qty) }); break;
            case 'prefs': prefs.confirmClose = c.close; prefs.confirmCloseAll = c.all; break;
            case 'answer': {
              const p = inflight.shift();
              if (!p) break;
              if (c.ok) p.resolve(p.input ? order(p.input.clientOrderId) : [order('a'), order('b')]);
              else p.reject(new Error('No open position'));
              break;
            }
          }
          await settle();
          const after = actor.getSnapshot();
          expect(inflight.length).toBeLessThanOrEqual(1);
          expect(after.context.sends).toBe(started);
          if (saved.length > savedBefore) {
            expect(['confirm', 'doubleConfirm', 'allConfirm']).toContain(c.k);
            expect(before.context.dontAsk).toBe(true);
          }
          if (started > startedBefore) {
            sentTotal += 1;
            expect(started).toBe(startedBefore + 1);
            const req = inflight.at(-1)!.input;
            if (c.k === 'open') {
              expect(c.quick && !prefs.confirmClose).toBe(true);
              expect(req?.qty).toBeUndefined();
              expect(req?.price).toBeUndefined();
            } else if (c.k === 'allOpen') expect(prefs.confirmCloseAll).toBe(false);
            else if (c.k === 'allConfirm') expect(before.value).toBe('confirmingAll');
            else {
              expect(['confirm', 'doubleConfirm']).toContain(c.k);
              expect(before.value).toBe('editing');
              expect(checkClose(before.context)).toBeNull();
            }
            if (req) {
              const ctx = after.context;
              const r = ctx.rules!;
              const whole = toUnits(ctx.position!.qty, r.qtyPrecision)!;
              if (req.qty !== undefined) {
                const u = toUnits(req.qty, r.qtyPrecision)!;
                expect(u > 0n && u < whole).toBe(true);
                expect(u % toUnits(r.qtyStep, r.qtyPrecision)!).toBe(0n);
                expect(u >= toUnits(r.minOrderQuantity, r.qtyPrecision)!).toBe(true);
              }
              if (ctx.mode === 'limit' && c.k !== 'open') {
                const px = toUnits(req.price!, r.pricePrecision)!;
                expect(px > 0n).toBe(true);
                expect(px % toUnits(r.tickSize, r.pricePrecision)!).toBe(0n);
              } else expect(req.price).toBeUndefined();
            }
          } else if (c.k === 'doubleConfirm' || c.k === 'allConfirm') {
            expect(started - startedBefore).toBeLessThanOrEqual(1);
          }
        }
        actor.stop();
      }),
      { numRuns: 150 },
    );
    expect(sentTotal).toBeGreaterThan(25);
  });

  it('the percentage buttons fill an exact quantity on the step', () => {
    const a = createActor(closeMachine, { input: { newId: () => 'x' } });
    a.start();
    a.send({ type: 'close.open', position: position(0.013), rules: RULES, quick: false });
    expect(a.getSnapshot().context.qty).toBe('0.013');
    a.send({ type: 'close.pct', pct: 50 });
    expect(a.getSnapshot().context.qty).toBe('0.006');
    a.send({ type: 'close.pct', pct: 75 });
    expect(a.getSnapshot().context.qty).toBe('0.009');
    a.send({ type: 'close.open', position: position(0.02), rules: RULES_STEP5, quick: false });
    a.send({ type: 'close.cancel' });
    a.send({ type: 'close.open', position: position(0.02), rules: RULES_STEP5, quick: false });
    a.send({ type: 'close.pct', pct: 25 });
    expect(a.getSnapshot().context.qty).toBe('0.005');
    a.send({ type: 'close.confirm' });
    expect(a.getSnapshot().context.problem).toBe('qtyMin');
  });
});

describe('a quantity finer than the precision (issue 26)', () => {
  const pos = { id: 'p', symbol: 'BTCUSDT', contract: 'perp', side: 'long', qty: 0.05, entryPrice: 60_000, markPrice: 60_000, liquidationPrice: 0, margin: '300', marginRatio: 0.1, unrealizedPnl: '0', returnPct: 0, tp: null, sl: null, leverage: 10, openedAt: 0, updatedAt: 0 } as Position;
  const check = (qty: string, rules: CloseRules = RULES) => checkClose({ position: pos, rules, mode: 'market', qty, price: '' });
  it('names the minimum or the step, not a missing quantity; text is still asked for', () => {
    expect(check('0.0001')).toBe('qtyMin');
    expect(check('0.0015')).toBe('qtyStep');
    expect(check('0.0125', RULES_STEP5)).toBe('qtyStep');
    expect(check('0.00999', RULES_STEP5)).toBe('qtyMin');
    expect(['', 'abc', '0', '-1'].map((q) => check(q))).toEqual(['qtyRequired', 'qtyRequired', 'qtyRequired', 'qtyRequired']);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), (n) => {
        const qty = `0.${String(n).padStart(6, '0')}`;
        const p = check(qty);
        // finer than 3 decimals: min or step; on the grid: a normal verdict, never 'qtyRequired' for a positive quantity
        expect(p).not.toBe('qtyRequired');
        if (n % 1000 !== 0) expect(['qtyMin', 'qtyStep']).toContain(p);
      }),
    );
  });
});
