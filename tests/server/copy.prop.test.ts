import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyServiceOf } from '../../server/copy/routes.ts';
import type { CopyService } from '../../server/copy/service.ts';
import { parseMinor } from '../../server/db/money.ts';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { ESCROW_ACCOUNT_ID } from '../../server/wallet/wallet.ts';
import { Rejection } from '../../server/http/errors.ts';
import { copyFollowBody } from '../../src/protocol/copy.ts';
import { startCopy } from './copyHarness.ts';
import type { CopyHarness } from './copyHarness.ts';

/**
 * Random sequences of lead-trader orders (opens, adds, reduces, closes, flips), follows, unfollows
 * (closing or keeping), price moves (with the leader's and the copies' liquidations) on a real
 * SQLite database through the real engine and copy service. After every step:
 * - right after a leader order, every active ratio copy that was never short of margin holds
 *   ratio × the leader's position, rounded down to the step (so within one quantity step);
 * - no user balance is negative and every balance equals the sum of its ledger rows;
 * - each user's copy wallet holds exactly the cash of their copies, and the escrow's copy wallet
 *   exactly the margin of the open copied positions.
 */

type Cmd =
  | { k: 'lead'; side: 'buy' | 'sell'; units: number; close: boolean }
  | { k: 'follow'; who: number; ratioPct: number; amount: number }
  | { k: 'unfollow'; who: number; closePositions: boolean }
  | { k: 'price'; price: number };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('lead' as const), side: fc.constantFrom('buy' as const, 'sell' as const), units: fc.integer({ min: 1, max: 250 }), close: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('follow' as const), who: fc.integer({ min: 0, max: 2 }), ratioPct: fc.constantFrom(5, 10, 25, 33, 50, 100, 150), amount: fc.integer({ min: 50, max: 9000 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('unfollow' as const), who: fc.integer({ min: 0, max: 2 }), closePositions: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('price' as const), price: fc.integer({ min: 52_000, max: 68_000 }) }) },
);

let ch: CopyHarness;
let svc: CopyService;
let run = 0;

beforeAll(async () => {
  ch = await startCopy();
  const s = copyServiceOf({ db: ch.h.db, bus: ch.bus }, ch.engine);
  if (!s) throw new Error('no copy service');
  svc = s;
});
afterAll(async () => {
  await ch.close();
});

async function signed(table: 'trade_positions' | 'copy_positions', where: { user?: number; follow?: number }): Promise<bigint> {
  let q = ch.h.db.selectFrom(table).select(['side', 'qty']).where('status', '=', 'open').where('symbol', '=', 'BTCUSDT');
  if (where.user !== undefined) q = q.where('user_id', '=', where.user);
  if (table === 'copy_positions' && where.follow !== undefined) q = (q as typeof q).where('follow_id' as never, '=', where.follow as never);
  const rows = await q.execute();
  return rows.reduce((s, r) => s + (r.side === 'long' ? parseMinor(r.qty) : -parseMinor(r.qty)), 0n);
}

async function checkMoney(users: number[]): Promise<void> {
  // The memory engine (TEST_ENGINE=memory) answers once durable and writes the tables behind: read them once written.
  await ch.engine.idle();
  for (const id of users) {
    for (const b of await balancesOf(ch.h.db, id)) {
      expect(b.amount >= 0n).toBe(true);
      expect(await ledgerSum(ch.h.db, id, b.wallet, b.asset)).toBe(b.amount);
    }
    const cash = (await ch.h.db.selectFrom('copy_follows').select('cash').where('user_id', '=', id).execute()).reduce((s, f) => s + parseMinor(f.cash), 0n);
    const wallet = (await balancesOf(ch.h.db, id)).find((b) => b.wallet === 'copy')?.amount ?? 0n;
    expect(wallet).toBe(cash);
  }
  const margins = (await ch.h.db.selectFrom('copy_positions').select('margin').where('status', '=', 'open').execute()).reduce((s, p) => s + parseMinor(p.margin), 0n);
  const escrow = (await balancesOf(ch.h.db, ESCROW_ACCOUNT_ID)).find((b) => b.wallet === 'copy')?.amount ?? 0n;
  expect(escrow).toBe(margins);
}

describe('copy trading (property, real database)', () => {
  it('copied positions follow their ratio of the leader within one step; money stays exact', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 4, maxLength: 16 }), async (cmds) => {
        run += 1;
        ch.source.setPrice('BTCUSDT', 60_000);
        await ch.engine.idle();
        const leader = await ch.leader(`lead${run}@example.com`);
        const followers = [await ch.user(`f${run}a@example.com`), await ch.user(`f${run}b@example.com`), await ch.user(`f${run}c@example.com`)];
        const active: (number | null)[] = [null, null, null];
        /** follows that have seen a leader execution since they started */
        const synced = new Set<number>();
        for (const c of cmds) {
          if (c.k === 'lead') {
            const pos = await signed('trade_positions', { user: leader.id });
            const closing = c.close && pos !== 0n;
            const side = closing ? (pos > 0n ? 'sell' : 'buy') : c.side;
            const units = closing ? Math.min(c.units, Number(pos < 0n ? -pos : pos)) : c.units;
            const r = await ch.order(leader.token, { side, qty: units / 1000, kind: closing ? 'marketClose' : 'marketOpen', leverage: 10 });
            if (r.code === 200 && r.data.status === 'filled') {
              for (const f of active) if (f !== null) synced.add(f);
              const lead = await signed('trade_positions', { user: leader.id });
              for (const f of active) {
                if (f === null || !synced.has(f)) continue;
                const row = await ch.h.db.selectFrom('copy_follows').selectAll().where('id', '=', f).executeTakeFirstOrThrow();
                const short = await ch.h.db.selectFrom('copy_orders').select('id').where('follow_id', '=', f).where('reason', '=', 'insufficientMargin').executeTakeFirst();
                if (short) continue;
                const mine = await signed('copy_positions', { follow: f });
                const ideal = (lead * BigInt(row.ratio_ppb ?? '0')) / 1_000_000_000n;
                expect(mine).toBe(ideal);
                const diff = (lead * BigInt(row.ratio_ppb ?? '0')) - mine * 1_000_000_000n;
                expect(diff < 0n ? -diff : diff).toBeLessThan(1_000_000_000n);
              }
            }
          } else if (c.k === 'follow') {
            const u = followers[c.who];
            if (!u || active[c.who] !== null) continue;
            try {
              const f = await svc.follow(u.id, copyFollowBody.parse({ traderId: leader.id, amount: String(c.amount), mode: 'ratio', ratio: String(c.ratioPct / 100) }));
              active[c.who] = f.id;
            } catch (err) {
              if (!(err instanceof Rejection)) throw err;
            }
          } else if (c.k === 'unfollow') {
            const f = active[c.who];
            const u = followers[c.who];
            if (f === null || f === undefined || !u) continue;
            await svc.unfollow(u.id, f, c.closePositions);
            active[c.who] = null;
          } else {
            ch.source.setPrice('BTCUSDT', c.price);
            await ch.engine.idle();
            await svc.checkAll();
          }
          await checkMoney([leader.id, ...followers.map((f) => f.id)]);
        }
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
