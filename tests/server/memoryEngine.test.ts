import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import { checkProjection } from '../../server/engine/projector.ts';
import { MemoryTradingEngine } from '../../server/engine/memoryEngine.ts';
import type { MemoryEngineOptions } from '../../server/engine/memoryEngine.ts';
import { realIo, scanJournalFile } from '../../server/engine/journalFile.ts';
import { resolveToken } from '../../server/http/auth.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { createTrading } from '../../server/trading/wiring.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import { userSocketPlugin } from '../../server/ws/userSocket.ts';
import { journalUnavailableMsg } from '../../src/protocol/engineStatus.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { Balance, Order, Position } from '../../src/protocol/trading.ts';
import { call, login, register, startServer, T0 } from './harness.ts';
import type { Harness } from './harness.ts';

/**
 * The memory engine behind the routes (ENGINE=memory, issue 28): whatever TEST_ENGINE says, these
 * servers run it. A restart recovers the state from the snapshot + journal and the projection check
 * passes; a clientOrderId placed before the restart answers the same order after it; a failed
 * journal write refuses with 503 in the request's language, changes nothing, and the engine takes
 * orders again once a write succeeds.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function boot(opts: { dataDir: string; shareDatabase?: string; engine?: Omit<MemoryEngineOptions, 'db' | 'clock' | 'source' | 'bus'> }): Promise<{ h: Harness; engine: MemoryTradingEngine; source: ControlledMarketSource }> {
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  const bus = createUserEventBus();
  let engine: MemoryTradingEngine | null = null;
  const plugins: FastifyPluginAsync[] = [
    async (app) => {
      await app.register(userSocketPlugin, {
        bus,
        clock: app.deps.clock,
        sweepMs: 0,
        authenticate: async (token) => {
          const auth = await resolveToken(app.deps.db, token, app.deps.clock.now());
          return auth ? { userId: auth.user.id } : null;
        },
      });
    },
    async (app) => {
      engine = new MemoryTradingEngine({ db: app.deps.db, clock: app.deps.clock, source, bus, ...opts.engine });
      await app.register(createTrading({ db: app.deps.db, clock: app.deps.clock, source, bus, periodicMs: 0, engine }).plugin);
    },
  ];
  const h = await startServer({ dataDir: opts.dataDir, config: { engine: 'memory' }, plugins, ...(opts.shareDatabase ? { shareDatabase: opts.shareDatabase } : {}) });
  const e = engine as MemoryTradingEngine | null;
  if (!e) throw new Error('engine not created');
  return { h, engine: e, source };
}

async function place(h: Harness, token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call<Order>(h, '/trade/order', { token, headers, body: { symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10, ...body } });
}

const perp = async (h: Harness, token: string): Promise<Balance | undefined> => (await call<Balance[]>(h, '/wallet/balances', { token })).data.find((b) => b.wallet === 'perp' && b.coin === 'USDT');

describe('the memory engine behind the routes (ENGINE=memory)', () => {
  it('answering once durable (ack durable), a read right after an answer shows it: the history, open orders, fills and ledger wait for the projector (read your writes)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rf-memengine-'));
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const a = await boot({ dataDir, engine: { ack: 'durable' } });
    cleanup.push(() => a.h.close());
    await register(a.h, 'ryw@example.com');
    const token = await login(a.h, 'ryw@example.com');
    a.source.setPrice('BTCUSDT', 60_000);
    await a.engine.idle();
    // The tables are not written until released: every answer below is ahead of them.
    const release = a.engine.projection.hold();
    const market = await place(a.h, token, { clientOrderId: 'ryw-1' });
    expect(market.code).toBe(200);
    expect(market.data.status).toBe('filled');
    const limit = await place(a.h, token, { kind: 'limitOpen', price: 55_000, clientOrderId: 'ryw-2' });
    expect(limit.data.status).toBe('pending');
    expect(a.engine.projection.seq).toBeLessThan(a.engine.sequencer.seq);
    const inTables = await a.h.db.selectFrom('trade_orders').select('id').where('id', 'in', [market.data.id, limit.data.id]).execute();
    expect(inTables).toEqual([]);
    let answered = false;
    const reads = Promise.all([
      call<Page<Order>>(a.h, '/trade/orders/history', { token }),
      call<Page<Order>>(a.h, '/trade/orders/open', { token }),
      call<Page<{ orderId: string }>>(a.h, '/trade/fills', { token }),
      call<Page<{ type: string }>>(a.h, '/wallet/ledger', { token }),
    ]).finally(() => (answered = true));
    // The reads wait for the projector while it is held (none answered from the stale tables) …
    await vi.waitFor(() => expect(a.engine.projection.waiting).toBe(4), { timeout: 30_000, interval: 20 });
    expect(answered).toBe(false);
    // … and show the orders once it has written them.
    release();
    const [history, open, fills, ledger] = await reads;
    expect(history.data.list.map((o) => o.id)).toContain(market.data.id);
    expect(open.data.list.map((o) => o.id)).toEqual([limit.data.id]);
    expect(fills.data.list.map((f) => f.orderId)).toContain(market.data.id);
    expect(ledger.data.total).toBeGreaterThan(0);
    // Nothing to wait for once the tables hold it: a read answers at once even while held again.
    const held = a.engine.projection.hold();
    expect((await call<Page<Order>>(a.h, '/trade/orders/history', { token })).data.list.map((o) => o.id)).toContain(market.data.id);
    held();
  }, 60_000);

  it('a restart recovers positions, balances and clientOrderId idempotency from the snapshot and the journal; the projected tables agree', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rf-memengine-'));
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const a = await boot({ dataDir });
    await register(a.h, 'mem@example.com');
    const token = await login(a.h, 'mem@example.com');
    a.source.setPrice('BTCUSDT', 60_000);
    await a.engine.idle();
    const first = await place(a.h, token, { clientOrderId: 'keep-1' });
    expect(first.code).toBe(200);
    expect(first.data.status).toBe('filled');
    const rest = await place(a.h, token, { kind: 'limitOpen', price: 55_000, clientOrderId: 'keep-2' });
    expect(rest.data.status).toBe('pending');
    const positions = (await call<Position[]>(a.h, '/trade/positions', { token })).data;
    expect(positions).toHaveLength(1);
    const balance = await perp(a.h, token);
    const seq = a.engine.sequencer.seq;
    const journal = join(dataDir, 'engine', 'journal.rfj');
    expect(scanJournalFile(journal).records).toBeGreaterThanOrEqual(4);
    await a.engine.idle();
    expect((await checkProjection(a.h.db, { seq, balances: a.engine.sequencer.state.balances })).problems).toEqual([]);
    // Stop the server, keep its database and DATA_DIR.
    await a.h.app.close();
    if (a.h.dialect === 'sqlite') await a.h.db.destroy();
    else cleanup.push(() => a.h.close());

    const b = await boot({ dataDir, ...(a.h.dbUrl ? { shareDatabase: a.h.dbUrl } : {}) });
    cleanup.push(() => b.h.close());
    b.h.clock.t = a.h.clock.t + 120_000; // the server's time goes on (a mail code's cooldown)
    expect(existsSync(journal)).toBe(true);
    expect(b.engine.sequencer.seq).toBe(seq);
    b.source.setPrice('BTCUSDT', 60_000);
    await b.engine.idle();
    const token2 = await login(b.h, 'mem@example.com');
    expect((await call<Position[]>(b.h, '/trade/positions', { token: token2 })).data).toEqual(positions);
    expect(await perp(b.h, token2)).toEqual(balance);
    // The same clientOrderId answers the order placed before the restart, and places nothing.
    const again = await place(b.h, token2, { clientOrderId: 'keep-1' });
    expect(again.code).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    expect((await call<Position[]>(b.h, '/trade/positions', { token: token2 })).data[0]?.qty).toBe(positions[0]?.qty);
    const cancel = await call<Order>(b.h, '/trade/order/cancel', { token: token2, body: { clientOrderId: 'keep-2' } });
    expect(cancel.data.status).toBe('canceled');
    await b.engine.idle();
    expect((await checkProjection(b.h.db, { seq: b.engine.sequencer.seq, balances: b.engine.sequencer.state.balances })).problems).toEqual([]);
  });

  it('a failed journal write (disk full) refuses with 503 in the request language and changes nothing; orders are taken again once a write succeeds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rf-memengine-'));
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    let failures = 0;
    const { h, engine, source } = await boot({
      dataDir,
      engine: {
        journalIo: (fh) => {
          const io = realIo(fh);
          return {
            ...io,
            async write(buf, position) {
              if (failures > 0) {
                failures -= 1;
                await io.write(buf.subarray(0, Math.floor(buf.length / 2)), position);
                throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
              }
              await io.write(buf, position);
            },
          };
        },
      },
    });
    cleanup.push(() => h.close());
    await register(h, 'full@example.com');
    const token = await login(h, 'full@example.com');
    source.setPrice('BTCUSDT', 60_000);
    await engine.idle();
    const before = await perp(h, token);
    failures = 1;
    const refused = await place(h, token, { clientOrderId: 'full-1' }, { 'Web-Lang': 'zh' });
    expect(refused.code).toBe(503);
    expect(refused.msg).toBe(journalUnavailableMsg('zh'));
    await engine.idle();
    expect(await perp(h, token)).toEqual(before);
    expect((await call<Position[]>(h, '/trade/positions', { token })).data).toEqual([]);
    // The disk has room again: the probe succeeds and the same clientOrderId is placed once.
    let placed = await place(h, token, { clientOrderId: 'full-1' }, { 'Web-Lang': 'ko' });
    if (placed.code === 503) {
      // Refused while the state was being recovered (in Korean): the next one is the probe.
      expect(placed.msg).toBe(journalUnavailableMsg('ko'));
      await engine.idle();
      placed = await place(h, token, { clientOrderId: 'full-1' });
    }
    expect(placed.code).toBe(200);
    expect(placed.data.status).toBe('filled');
    expect((await call<Position[]>(h, '/trade/positions', { token })).data).toHaveLength(1);
    await engine.idle();
    expect((await checkProjection(h.db, { seq: engine.sequencer.seq, balances: engine.sequencer.state.balances })).problems).toEqual([]);
  });
});
