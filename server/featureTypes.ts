import type { FastifyPluginAsync } from 'fastify';
import type { Db } from './db/connection.ts';
import type { ServerClock } from './http/deps.ts';
import type { MarketSource } from './market/source.ts';
import type { TradingEngine } from './trading/engine.ts';
import type { UserEventBus } from './ws/userBus.ts';

/**
 * The contract between the feature registry (server/features.ts) and the features: kept apart
 * from the registry so a feature never imports the file that imports it (no import cycle in
 * server/, checked by .dependency-cruiser.cjs).
 */

/** What a server feature may use (docs/ARCHITECTURE.md, "Server features"). */
export interface FeatureDeps {
  db: Db;
  clock: ServerClock;
  /** Pushes user-socket frames (e.g. a KYC decision); absent in tests that run without sockets. */
  bus?: UserEventBus;
  /** The market engine (prices for trading and instant convert); features that need it are skipped without it. */
  source?: MarketSource;
  /**
   * Period of every feature's background job in ms, overriding each job's default; 0 = no timer,
   * the caller runs the jobs by hand with `runFeatureJobs` (server/features.ts) after moving its clock (tests).
   */
  periodicMs?: number;
  /**
   * The trading engine to serve instead of building one on `source`: a gateway process passes its
   * RemoteTradingEngine, which forwards every command to the engine process (docs/SCALING.md).
   */
  engine?: TradingEngine;
  /** ENGINE (server/config.ts): the SQL engine (default) or the memory engine behind a journal. */
  engineMode?: 'sql' | 'memory';
  /**
   * false: the simulated lead traders trade only when asked (POST /api/dev/copy/sim), never on the
   * feature job's timer. The test servers under MARKET_STEERING, whose market is the tests' to move.
   */
  simRounds?: boolean;
}

/** A periodic job of a feature: due work on the server clock (payouts, chain confirmations). */
export interface FeatureJob {
  /** Default period when FeatureDeps.periodicMs is not given. */
  everyMs: number;
  run(deps: FeatureDeps, now: number): Promise<unknown>;
}

/**
 * One server feature: a folder under server/ with its routes, service and store. `plugin`
 * registers its routes under its own prefix (null when a dependency it needs is absent); `job`
 * is run on a timer by `createFeatures` (server/features.ts), never by the feature itself.
 */
export interface ServerFeature {
  name: string;
  plugin(deps: FeatureDeps): FastifyPluginAsync | null;
  job?: FeatureJob;
}
