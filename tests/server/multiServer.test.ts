import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { parseMinor } from '../../server/db/money.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { createTrading } from '../../server/trading/wiring.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import { call, login, register, startServer, T0, testEngineMode } from './harness.ts';
import type { Harness, HarnessOptions } from './harness.ts';
import { TEST_DIALECT } from './testDb.ts';

/**
 * Three real servers (each its own HTTP port, pg pool and trading engine, as three processes would
 * have) on ONE PostgreSQL database. Users sign up through different servers at once (UIDs from the
 * sequence never collide), then batches of transfers and market orders are spread over the three
 * servers concurrently. The ledger properties hold afterwards: no balance negative (users, margin
 * escrow), every balance equals its ledger sum, each asset sums to zero over all accounts.
 * PostgreSQL only: SQLite is one process's embedded file.
 */
const USERS = 4;

describe.runIf(TEST_DIALECT === 'postgres')('three servers on one PostgreSQL database', () => {
  const servers: Harness[] = [];
  const tokens: { token: string; server: Harness }[] = [];

  const withTrading = (): HarnessOptions['plugins'] => {
    const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
    source.setPrice('BTCUSDT', 50_000, 50_000);
    return [
      async (app) => {
        const t = createTrading({ db: app.deps.db, clock: app.deps.clock, source, bus: createUserEventBus(), periodicMs: 0, mode: testEngineMode() });
        await app.register(t.plugin);
      },
    ];
  };

  beforeAll(async () => {
    const first = await startServer({ plugins: withTrading() });
    servers.push(first);
    for (let i = 1; i < 3; i++) servers.push(await startServer({ plugins: withTrading(), shareDatabase: first.dbUrl as string }));
    // Sign-ups through all three servers at once.
    const emails = Array.from({ length: USERS }, (_, i) => `m${i}@example.com`);
    await Promise.all(emails.map((e, i) => register(servers[i % 3] as Harness, e)));
    for (const [i, e] of emails.entries()) {
      const server = servers[i % 3] as Harness;
      tokens.push({ token: await login(server, e), server });
    }
  });
  afterAll(async () => {
    for (const s of servers.slice().reverse()) await s.close();
  });

  it('sign-ups on different servers get distinct UIDs from the sequence', async () => {
    const ids = await Promise.all(tokens.map(async ({ token, server }) => (await call<{ id: number }>(server, '/user/info', { token })).data.id));
    expect(new Set(ids).size).toBe(USERS);
    expect(Math.min(...ids)).toBe(10_000_001);
    expect(Math.max(...ids)).toBe(10_000_000 + USERS);
  });

  it('concurrent transfers and orders spread over three servers never overdraw and keep the ledger equal to the balances', async () => {
    const op = fc.record({
      user: fc.nat({ max: USERS - 1 }),
      server: fc.nat({ max: 2 }),
      kind: fc.constantFrom('toPerp', 'toFund', 'buy', 'sell'),
      amount: fc.integer({ min: 1, max: 9_000 }),
      qty: fc.constantFrom(0.01, 0.05, 0.1, 0.5),
    });
    let seq = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30 }), async (ops) => {
        const replies = await Promise.all(
          ops.map((o) => {
            const { token } = tokens[o.user] as { token: string };
            const server = servers[o.server] as Harness;
            if (o.kind === 'toPerp' || o.kind === 'toFund') {
              // Money moves run on whichever server (gateway) gets them, against the shared database.
              const [from, to] = o.kind === 'toPerp' ? ['fund', 'perp'] : ['perp', 'fund'];
              return call(server, '/wallet/transfer', { token, body: { from, to, coin: 'USDT', amount: String(o.amount) } });
            }
            seq += 1;
            // Orders go to the one trading engine, as a cluster's gateways forward them
            // (docs/SCALING.md): positions and orders are owned by that engine's serial queue.
            return call(servers[0] as Harness, '/trade/order', {
              token,
              body: { clientOrderId: `m${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: o.kind, qty: o.qty, leverage: 10 },
            });
          }),
        );
        // Every reply is a business answer (200 or a refusal), never a server error.
        for (const r of replies) expect(r.code, r.msg).toBeLessThan(500);

        const db = servers[0]?.db;
        if (!db) throw new Error('no server');
        const balances = await db.selectFrom('balances').selectAll().execute();
        const entries = await db.selectFrom('ledger_entries').select(['user_id', 'wallet', 'asset', 'amount']).execute();
        const sums = new Map<string, bigint>();
        for (const e of entries) sums.set(`${e.user_id}|${e.wallet}|${e.asset}`, (sums.get(`${e.user_id}|${e.wallet}|${e.asset}`) ?? 0n) + parseMinor(e.amount));
        const totals = new Map<string, bigint>();
        for (const b of balances) {
          const amount = parseMinor(b.amount);
          if (b.user_id !== SYSTEM_ACCOUNT_ID) expect(amount >= 0n, `${b.user_id} ${b.wallet} ${b.asset} ${amount}`).toBe(true);
          expect(amount).toBe(sums.get(`${b.user_id}|${b.wallet}|${b.asset}`) ?? 0n);
          totals.set(b.asset, (totals.get(b.asset) ?? 0n) + amount);
        }
        for (const t of totals.values()) expect(t).toBe(0n);
      }),
      { numRuns: 4, endOnFailure: true },
    );
  }, 180_000);
});
