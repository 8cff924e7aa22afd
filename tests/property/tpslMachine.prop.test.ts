import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { tpslMachine, type TpslRequest } from '../../src/machines/tpslMachine.ts';
import type { Position } from '../../src/protocol/trading.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the TP/SL machine (src/machines/tpslMachine.ts) over random edits, marks that
 * move, (double) saves, cancels and server answers:
 * - one request per save, never two in flight;
 * - nothing on the wrong side of the mark the dialog showed is ever sent (long: TP above, SL
 *   below; short reversed), and a refused save says why for the field it refuses;
 * - an empty field is sent as null (removes that trigger).
 */

const RULES = { pricePrecision: 1, tickSize: 0.5 };

const position = (side: 'long' | 'short', mark: number): Position => ({
  id: 'P1', symbol: 'BTCUSDT', contract: 'perp', side, qty: 0.02, entryPrice: 60000, markPrice: mark, liquidationPrice: 50000,
  margin: '120', marginRatio: 0.1, unrealizedPnl: '0', returnPct: 0, tp: null, sl: null, leverage: 10, openedAt: 1, updatedAt: 1,
});

type Cmd =
  | { k: 'open'; side: 'long' | 'short'; mark: number }
  | { k: 'mark'; mark: number }
  | { k: 'tp' | 'sl'; text: string }
  | { k: 'save' | 'doubleSave' | 'cancel' }
  | { k: 'answer'; ok: boolean };

const markArb = fc.constantFrom(59000, 60000, 60000.5, 61000);
const priceText = fc.constantFrom('', '55000', '59000', '60000', '60000.5', '60001', '62000', '65000', '60000.3', 'abc');
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('open' as const), side: fc.constantFrom('long' as const, 'short' as const), mark: markArb }),
  fc.record({ k: fc.constant('mark' as const), mark: markArb }),
  fc.record({ k: fc.constantFrom('tp' as const, 'sl' as const), text: priceText }),
  fc.constantFrom(...(['save', 'save', 'doubleSave', 'cancel'] as const).map((k) => ({ k }))),
  fc.record({ k: fc.constant('answer' as const), ok: fc.boolean() }),
);

describe('tpslMachine properties', () => {
  it('one request per save, nothing on the wrong side of the mark, refusals say why', async () => {
    let sent = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 3, maxLength: 30 }), async (cmds) => {
        const inflight: { input: TpslRequest; resolve: (p: Position) => void; reject: (e: Error) => void }[] = [];
        let started = 0;
        const actor = createActor(
          tpslMachine.provide({
            actors: {
              save: fromPromise<Position, TpslRequest>(({ input }) => new Promise((resolve, reject) => {
                started += 1;
                inflight.push({ input, resolve, reject });
              })),
            },
          }),
        );
        actor.start();
        for (const c of cmds) {
          const before = actor.getSnapshot();
          const startedBefore = started;
          switch (c.k) {
            case 'open': actor.send({ type: 'tpsl.open', position: position(c.side, c.mark), rules: RULES }); break;
            case 'mark': if (before.context.position) actor.send({ type: 'tpsl.position', position: position(before.context.position.side, c.mark) }); break;
            case 'tp': actor.send({ type: 'tpsl.tp', text: c.text }); break;
            case 'sl': actor.send({ type: 'tpsl.sl', text: c.text }); break;
            case 'save': actor.send({ type: 'tpsl.save' }); break;
            case 'doubleSave': actor.send({ type: 'tpsl.save' }); actor.send({ type: 'tpsl.save' }); break;
            case 'cancel': actor.send({ type: 'tpsl.cancel' }); break;
            case 'answer': {
              const p = inflight.shift();
              if (!p) break;
              if (c.ok) p.resolve(position('long', 60000));
              else p.reject(new Error('Invalid take-profit price'));
              break;
            }
          }
          await settle();
          const after = actor.getSnapshot();
          expect(inflight.length).toBeLessThanOrEqual(1);
          expect(after.context.sends).toBe(started);
          if (started > startedBefore) {
            sent += 1;
            expect(started).toBe(startedBefore + 1);
            expect(['save', 'doubleSave']).toContain(c.k);
            const req = inflight.at(-1)!.input;
            const p = before.context.position!;
            const mark = p.markPrice;
            expect(req.tp === null).toBe(before.context.tp.trim() === '');
            expect(req.sl === null).toBe(before.context.sl.trim() === '');
            const long = p.side === 'long';
            if (req.tp !== null) expect(long ? Number(req.tp) > mark : Number(req.tp) < mark).toBe(true);
            if (req.sl !== null) expect(long ? Number(req.sl) < mark : Number(req.sl) > mark).toBe(true);
          } else if ((c.k === 'save' || c.k === 'doubleSave') && before.value === 'editing') {
            refused += 1;
            const probs = after.context.problems;
            expect(Object.values(probs).filter(Boolean).length).toBeGreaterThan(0);
            const p = before.context.position!;
            const long = p.side === 'long';
            const tp = before.context.tp.trim();
            if (probs.tp === 'tpAboveMark' || probs.tp === 'tpBelowMark') expect(long ? Number(tp) <= p.markPrice : Number(tp) >= p.markPrice).toBe(true);
          }
        }
        actor.stop();
      }),
      { numRuns: 200 },
    );
    expect(sent).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });
});
