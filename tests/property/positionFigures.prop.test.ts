import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { initialMargin, maintenanceMargin, notional, scaled, shouldLiquidate, unscaled } from '../../server/trading/formulas.ts';
import { positionDto, type PositionRow } from '../../server/trading/store.ts';
import { costOf, revaluePosition, revaluePositions } from '../../src/streams/positionFigures.ts';

/**
 * Issue 26, Major 1: the client values a position at the live mark with the server's formulas.
 * A DTO the server built at one mark, valued by the client at another, must show exactly what the
 * server's DTO at that other mark shows (mark, uPnL, return %, margin ratio, liquidation price),
 * and the distance to liquidation must be ≤ 0 exactly where the engine's liquidation check holds.
 */

const position = fc
  .record({
    inst: fc.constantFrom(...INSTRUMENTS.slice(0, 8)),
    steps: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 50, max: 200_000 })),
    entryF: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
    markF: fc.double({ min: 0.3, max: 1.8, noNaN: true }),
    liveF: fc.double({ min: 0.3, max: 1.8, noNaN: true }),
    long: fc.boolean(),
    lev: fc.integer({ min: 1, max: 125 }),
  })
  .map(({ inst, steps, entryF, markF, liveF, long, lev }) => {
    const rules = inst.info;
    const tick = scaled(rules.tickSize, rules.pricePrecision);
    const priceAt = (f: number) => BigInt(Math.max(1, Math.round((inst.startPrice * f) / rules.tickSize))) * tick;
    const qty = BigInt(steps) * scaled(rules.qtyStep, rules.qtyPrecision);
    const cost = notional(rules, priceAt(entryF), qty);
    const margin = initialMargin(cost, Math.min(lev, rules.maxLever));
    const row = {
      id: 'P1', user_id: 7, symbol: rules.symbol, contract: 'perp', side: long ? 'long' : 'short', qty: String(qty), cost: String(cost),
      margin: String(margin), leverage: Math.min(lev, rules.maxLever), status: 'open', realized_pnl: '0', opened_at: 0, updated_at: 0, closed_at: null,
    } as PositionRow;
    return {
      rules, row, cost, margin, qty,
      mark: unscaled(priceAt(markF), rules.pricePrecision),
      live: unscaled(priceAt(liveF), rules.pricePrecision),
    };
  });

describe('live position figures (src/streams/positionFigures.ts) vs the server (server/trading)', () => {
  it('a DTO valued again at a new mark equals the server DTO at that mark', () => {
    fc.assert(
      fc.property(position, ({ rules, row, cost, mark, live }) => {
        const sent = positionDto(row, rules, mark, null, null);
        expect(costOf(sent)).toBe(cost * 10n ** 6n); // scaled at 12 digits
        const client = revaluePosition(sent, live);
        const server = positionDto(row, rules, live, null, null);
        expect({
          markPrice: client.markPrice,
          unrealizedPnl: client.unrealizedPnl,
          returnPct: client.returnPct,
          marginRatio: client.marginRatio,
          liquidationPrice: client.liquidationPrice,
        }).toEqual({
          markPrice: server.markPrice,
          unrealizedPnl: server.unrealizedPnl,
          returnPct: server.returnPct,
          marginRatio: server.marginRatio,
          liquidationPrice: server.liquidationPrice,
        });
      }),
      { numRuns: 400 },
    );
  });

  it('the distance to liquidation is ≤ 0 exactly when the engine liquidates at that mark', () => {
    fc.assert(
      fc.property(position, ({ rules, row, cost, margin, qty, live }) => {
        const p = revaluePosition(positionDto(row, rules, live, null, null), live);
        if (p.liquidationPrice <= 0) {
          expect(p.liqDistance).toBeNull();
          return;
        }
        const liquidates = shouldLiquidate(rules, row.side, cost, margin, qty, scaled(live, rules.pricePrecision));
        expect(p.liqDistance! <= 0).toBe(liquidates);
      }),
      { numRuns: 400 },
    );
  });

  it('the margin ratio (maintenance margin / margin balance) reaches 100 % exactly where the engine liquidates, on both sides (issue 26)', () => {
    fc.assert(
      fc.property(position, ({ rules, row, cost, margin, qty, mark, live }) => {
        const server = positionDto(row, rules, live, null, null);
        const client = revaluePosition(positionDto(row, rules, mark, null, null), live);
        const liquidates = shouldLiquidate(rules, row.side, cost, margin, qty, scaled(live, rules.pricePrecision));
        expect(server.marginRatio >= 1).toBe(liquidates);
        expect(client.marginRatio >= 1).toBe(liquidates);
        expect(server.marginRatio).toBeGreaterThanOrEqual(0);
        // the definition, exactly: maintenance margin of the notional at the mark over margin + uPnL
        const value = notional(rules, scaled(live, rules.pricePrecision), qty);
        const balance = margin + (row.side === 'long' ? value - cost : cost - value);
        if (balance > 0n) expect(server.marginRatio).toBe(Number((maintenanceMargin(rules, value) * 1_000_000n) / balance) / 1_000_000);
      }),
      { numRuns: 400 },
    );
  });

  it('positions without a mark keep the server figures; rows whose input did not change are reused', () => {
    fc.assert(
      fc.property(position, ({ rules, row, mark, live }) => {
        const sent = positionDto(row, rules, mark, null, null);
        const [kept] = revaluePositions([sent], {});
        expect(kept).toMatchObject({ markPrice: sent.markPrice, unrealizedPnl: sent.unrealizedPnl, marginRatio: sent.marginRatio });
        const marks = { [sent.symbol]: live };
        const first = revaluePositions([sent], marks);
        const again = revaluePositions([sent], { ...marks }, { positions: [sent], marks, out: first });
        expect(again[0]).toBe(first[0]);
      }),
      { numRuns: 100 },
    );
  });
});
