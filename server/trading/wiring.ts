import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/connection.ts';
import type { MarketSource } from '../market/source.ts';
import { tradeRoutes } from '../routes/trade.ts';
import { walletRoutes } from '../routes/wallet.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import { TradingEngine } from './engine.ts';
import { MemoryTradingEngine } from '../engine/memoryEngine.ts';

const ENGINES = new WeakMap<Db, TradingEngine>();

/**
 * The trading engine built on a database by {@link createTrading}, for features that compose with
 * it (copy trading mirrors its fills): undefined before the trading feature is created.
 */
export function tradingEngineOf(db: Db): TradingEngine | undefined {
  return ENGINES.get(db);
}

export interface TradingWiring {
  engine: TradingEngine;
  /** For `buildApp({ plugins })`: starts the engine when the app is ready, stops it on close, and serves /api/trade and /api/wallet. */
  plugin: FastifyPluginAsync;
}

/**
 * Builds the trading engine on the market source and user bus, and the plugin that owns its
 * life cycle. `periodicMs` drives the funding / overnight schedule with a real interval; tests pass 0
 * and call `engine.runPeriodic()` after moving their clock.
 */
export function createTrading(opts: { db: Db; clock: { now(): number }; source: MarketSource; bus?: UserEventBus; periodicMs?: number; engine?: TradingEngine; mode?: 'sql' | 'memory' }): TradingWiring {
  // A gateway process passes its RemoteTradingEngine (server/broker/remoteEngine.ts): commands go to the engine process.
  const base = { db: opts.db, clock: opts.clock, source: opts.source, ...(opts.bus ? { bus: opts.bus } : {}) };
  const engine = opts.engine ?? (opts.mode === 'memory' ? new MemoryTradingEngine(base) : new TradingEngine(base));
  ENGINES.set(opts.db, engine);
  const plugin: FastifyPluginAsync = async (app) => {
    await engine.start({ periodicMs: opts.periodicMs ?? 1000, dataDir: app.deps.config.dataDir });
    app.addHook('onClose', async () => {
      await engine.stop();
    });
    await app.register(walletRoutes, { prefix: '/api/wallet', ...(opts.bus ? { bus: opts.bus } : {}) });
    await app.register(tradeRoutes, { prefix: '/api/trade', engine });
  };
  return { engine, plugin };
}
