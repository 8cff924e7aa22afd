import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply } from '../../server/engine/apply.ts';
import { copyState, emptyState, stateHash } from '../../server/engine/state.ts';
import type { EngineState } from '../../server/engine/state.ts';
import { balanceKey, SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { ESCROW_ACCOUNT_ID } from '../../server/wallet/wallet.ts';

/**
 * The in-memory engine alone (server/engine/apply.ts, state.ts), many runs (no database: its
 * equality with the SQL engine is tests/server/engineState.prop.test.ts):
 *  - a refused command changes nothing (the undo log puts every write back): same stateHash;
 *  - after every command: no balance but the system's negative, each asset's total unchanged
 *    (money moves, never appears or disappears), the escrow = Σ frozen per wallet, frozen =
 *    the margins of the pending orders and open positions, the pending index = the pending orders;
 *  - copy trading: a user's copy wallet = the cash of their follows, the copy escrow = the margins of the open copied positions;
 *  - an accepted convert fills the caller's own unused, unexpired quote at exactly its amounts;
 *  - stateHash does not depend on insertion order; a copy shares nothing with the state.
 */

import type { Command } from '../../server/engine/apply.ts';
import type { PlaceOrderParsed } from '../../src/protocol/trading.ts';
import { engineCommandArb as genArb, ENGINE_RULES as RULES, ENGINE_USERS as USERS, seededEngineState as seeded } from './engineArbs.ts';

const LEAD_ORDER: PlaceOrderParsed = {
  clientOrderId: '', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.01, leverage: 20, price: null, tp: null, sl: null,
  reduceOnly: false, postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
};

function totals(s: EngineState): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [k, v] of s.balances) {
    const asset = k.split('|')[2] ?? '';
    out.set(asset, (out.get(asset) ?? 0n) + v);
  }
  // An asset first moved by a convert (BTC, ETH) sums to zero like the others.
  return new Map([...out].filter(([, v]) => v !== 0n));
}

function checkInvariants(s: EngineState, total: Map<string, bigint>): void {
  for (const [k, v] of s.balances) if (!k.startsWith(`${SYSTEM_ACCOUNT_ID}|`)) expect(v >= 0n, k).toBe(true);
  expect(totals(s)).toEqual(total);
  const frozen = new Map<string, bigint>();
  const add = (k: string, v: bigint) => v !== 0n && frozen.set(k, (frozen.get(k) ?? 0n) + v);
  const pending = new Set<string>();
  for (const o of s.orders.values()) {
    if (o.status !== 'pending') continue;
    pending.add(o.id);
    add(balanceKey(o.user_id, o.contract, 'USDT'), BigInt(o.margin));
  }
  for (const p of s.positions.values()) add(balanceKey(p.user_id, p.contract, 'USDT'), BigInt(p.margin));
  expect(new Map([...s.frozen].sort()), 'frozen').toEqual(new Map([...frozen].filter(([, v]) => v !== 0n).sort()));
  for (const w of ['perp', 'std'] as const) {
    const sum = [...s.frozen].filter(([k]) => k.split('|')[1] === w).reduce((a, [, v]) => a + v, 0n);
    expect(s.balances.get(balanceKey(ESCROW_ACCOUNT_ID, w, 'USDT')) ?? 0n, `escrow ${w}`).toBe(sum);
  }
  // Copy trading: each user's copy wallet holds exactly the cash of their follows; the escrow's copy wallet the margins of the open copied positions.
  const cash = new Map<number, bigint>();
  for (const f of s.follows.values()) cash.set(f.user_id, (cash.get(f.user_id) ?? 0n) + BigInt(f.cash));
  for (const u of USERS) expect(s.balances.get(balanceKey(u, 'copy', 'USDT')) ?? 0n, `copy wallet of ${u}`).toBe(cash.get(u) ?? 0n);
  const copyMargins = [...s.copyPositions.values()].reduce((a, p) => a + BigInt(p.margin), 0n);
  expect(s.balances.get(balanceKey(ESCROW_ACCOUNT_ID, 'copy', 'USDT')) ?? 0n, 'copy escrow').toBe(copyMargins);
  for (const p of s.copyPositions.values()) expect(p.status).toBe('open');
  const indexed = new Set<string>();
  for (const bySide of s.pending.values()) for (const side of [bySide.buy, bySide.sell]) for (const id of side.keys()) indexed.add(id);
  expect([...indexed].sort()).toEqual([...pending].sort());
}

describe('in-memory engine state (property, no database)', () => {
  it('a refusal changes nothing; money is conserved and never negative; escrow = frozen; the pending index is exact', () => {
    let refused = 0;
    let accepted = 0;
    let converted = 0;
    let copied = 0;
    fc.assert(
      fc.property(fc.array(genArb, { minLength: 1, maxLength: 80, size: 'medium' }), (gens) => {
        const s = seeded();
        const total = totals(s);
        let t = Date.UTC(2026, 0, 1);
        for (const [i, g] of gens.entries()) {
          const cmd = g(s, i + 1);
          // An hour apart (funding, overnight), a convert 2 s after the command before (a quote holds 8 s).
          t += cmd.type === 'quote' || cmd.type === 'convert' ? 2_000 : 3_600_000;
          const before = stateHash(s);
          const quoteBefore = cmd.type === 'convert' ? s.quotes.get(cmd.quoteId) : undefined;
          const out = apply(s, cmd, i + 1, t);
          if (!out.ok) {
            refused += 1;
            expect(stateHash(s), `${JSON.stringify(cmd)} refused: ${out.msg}`).toBe(before);
          } else accepted += 1;
          if (out.ok) copied += out.copyOrders.filter((c) => c.status === 'filled').length;
          if (cmd.type === 'convert' && out.ok) {
            // Once, the caller's own quote, unexpired, at exactly its amounts (fee 0): paid to and received from the system account.
            converted += 1;
            expect(quoteBefore?.filled_at).toBe(null);
            expect(quoteBefore?.user_id).toBe(cmd.userId);
            expect(t < (quoteBefore?.expires_at ?? 0)).toBe(true);
            expect(s.quotes.get(cmd.quoteId)?.filled_at).toBe(t);
            expect(out.postings.map((p) => [p.type, p.from.userId, p.to.userId, p.coin, p.amount])).toEqual([
              ['EXCHANGE_DEDUCTION', cmd.userId, SYSTEM_ACCOUNT_ID, quoteBefore?.from_coin, BigInt(quoteBefore?.from_amount ?? -1)],
              ['EXCHANGE_RECEIVED', SYSTEM_ACCOUNT_ID, cmd.userId, quoteBefore?.to_coin, BigInt(quoteBefore?.to_amount ?? -1)],
            ]);
          }
          checkInvariants(s, total);
        }
      }),
      {
        numRuns: 60,
        // Always among the runs: a quote converted, and the lead trader's order mirrored into the follows.
        examples: [[[
          (): Command => ({ type: 'quote', userId: 102, body: { from: 'USDT', to: 'BTC', amount: '250', account: 'fund' } }),
          (st: EngineState): Command => ({ type: 'convert', userId: 102, quoteId: [...st.quotes.keys()].pop() ?? 'none' }),
          (): Command => ({ type: 'place', userId: 101, body: { ...LEAD_ORDER, clientOrderId: 'lead-1' } }),
          (): Command => ({ type: 'place', userId: 101, body: { ...LEAD_ORDER, clientOrderId: 'lead-2', kind: 'marketClose', side: 'sell', reduceOnly: true } }),
        ]]],
      },
    );
    expect(refused).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
    expect(converted).toBeGreaterThan(0);
    expect(copied).toBeGreaterThan(0);
  }, 60_000);

  it('stateHash ignores insertion order and sees every value; a copy shares nothing', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.integer({ min: 3, max: 500 }), fc.bigInt({ min: 0n, max: 10n ** 15n })), { selector: ([u]) => u, minLength: 2 }), (rows) => {
        const a = emptyState(RULES);
        const b = emptyState(RULES);
        for (const [u, v] of rows) a.balances.set(balanceKey(u, 'perp', 'USDT'), v);
        for (const [u, v] of [...rows].reverse()) b.balances.set(balanceKey(u, 'perp', 'USDT'), v);
        expect(stateHash(a)).toBe(stateHash(b));
        const copy = copyState(a);
        const [u, v] = rows[0] as [number, bigint];
        copy.balances.set(balanceKey(u, 'perp', 'USDT'), v + 1n);
        expect(stateHash(copy)).not.toBe(stateHash(a));
        expect(stateHash(a)).toBe(stateHash(b));
      }),
    );
  });
});
