import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.ts';
import type { ServerClock } from '../http/deps.ts';
import type { RateLimits } from '../http/rateLimit.ts';
import type { MarketSource } from '../market/source.ts';
import type { TradingEngine } from '../trading/engine.ts';
import type { RevocationHub } from '../ws/revocations.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import { createMemoryBroker } from './broker.ts';
import type { Broker } from './broker.ts';
import { createBrokerRevocationHub, createBrokerUserBus } from './channels.ts';
import { brokerRateLimits } from './limits.ts';
import { MirrorMarketSource, publishMarket } from './mirror.ts';
import { createRedisBroker } from './redis.ts';
import { engineHandlers, RemoteTradingEngine } from './remoteEngine.ts';
import { EngineClient, serveEngine } from './rpc.ts';

/**
 * ROLE: `all` (default: one process does everything, as always), `engine` (owns the market and
 * the trading engine, publishes to the broker; exactly one, by the broker's lock) or `gateway`
 * (HTTP and both sockets; trading commands go to the engine over the broker). docs/SCALING.md.
 */
export type Role = 'all' | 'engine' | 'gateway';

export const ENGINE_LOCK = 'engine';
/** The engine's lease on the lock; renewed every third of it. */
export const ENGINE_LEASE_MS = 10_000;
/** How often a standby engine (ENGINE_STANDBY=1) tries the lock. */
export const STANDBY_POLL_MS = 250;

export interface RoleConfig {
  role: Role;
  /** BROKER_URL (redis://...), or null: the in-memory broker of one process. */
  brokerUrl: string | null;
  /**
   * ENGINE_STANDBY=1 (ROLE=engine with a broker): while another engine holds the lock, wait for it
   * (its modules loaded, its database open) instead of exiting, and take over as soon as the lock is
   * free (the holder stopped, or died and its lease expired). docs/SCALING.md "Failover".
   */
  standby?: boolean;
}

export function loadRoleConfig(env: NodeJS.ProcessEnv = process.env): RoleConfig {
  const role = (env.ROLE ?? 'all').trim().toLowerCase();
  if (role !== 'all' && role !== 'engine' && role !== 'gateway') throw new Error(`Invalid ROLE: ${role} (all|engine|gateway)`);
  const brokerUrl = env.BROKER_URL?.trim() || null;
  if (brokerUrl !== null && !/^rediss?:\/\//.test(brokerUrl)) throw new Error(`Invalid BROKER_URL: ${brokerUrl} (redis://host:port)`);
  if (role === 'gateway' && brokerUrl === null) throw new Error('ROLE=gateway needs BROKER_URL (redis://...): a gateway reaches the engine through the broker');
  const standby = /^(1|true|yes|on)$/i.test(env.ENGINE_STANDBY?.trim() ?? '');
  if (standby && (role !== 'engine' || brokerUrl === null)) throw new Error('ENGINE_STANDBY=1 needs ROLE=engine and BROKER_URL (a standby waits for the engine lock of a shared broker)');
  return { role, brokerUrl, ...(standby ? { standby } : {}) };
}

/** Thrown when another engine holds the lock. */
export class EngineLockHeld extends Error {
  constructor(readonly holder: string | undefined) {
    super(
      `Another trading engine holds the broker lock "${ENGINE_LOCK}" (owner ${holder ?? 'unknown'}); refusing to start. ` +
        `Only one engine may run per deployment: stop the other one, or wait up to ${ENGINE_LEASE_MS / 1000} s for its lease to expire if it died.`,
    );
    this.name = 'EngineLockHeld';
  }
}

/** What server.ts builds the app and features from, per role. */
export interface RoleSetup {
  role: Role;
  broker: Broker;
  source: MarketSource;
  /** Undefined: the platform's own in-process bus, hub and limits (ROLE=all without a broker: unchanged). */
  bus?: UserEventBus;
  revocations?: RevocationHub;
  /** Gateways: the remote trading engine and no feature jobs (the engine runs them). */
  engine?: TradingEngine;
  periodicMs?: number;
  /** Call once the features are built (the engine then answers gateways). */
  serve(tradingEngine: TradingEngine | undefined): void;
  close(): Promise<void>;
}

/**
 * Connects to the broker and builds the role's pieces. An engine takes the lock first (and throws
 * {@link EngineLockHeld} when it cannot); a gateway waits until an engine answers with the market.
 * `onLost` is called if an engine loses its lease (it must then stop at once: another may start).
 */
export async function setupRole(
  rc: RoleConfig,
  deps: { db: Db; clock: ServerClock; createSource: () => MarketSource; log: (msg: string) => void; onError: (err: unknown) => void; onLost: () => void },
): Promise<RoleSetup> {
  const broker = rc.brokerUrl ? await createRedisBroker(rc.brokerUrl, { onError: deps.onError }) : createMemoryBroker({ onError: deps.onError });
  const shared = broker.kind !== 'memory';
  if (rc.role === 'gateway') {
    const client = new EngineClient(broker);
    const source = new MirrorMarketSource(broker, client, deps.onError);
    deps.log('gateway: waiting for the engine to answer with the market');
    await source.start();
    const bus = createBrokerUserBus(broker, { onError: deps.onError });
    const engine = new RemoteTradingEngine({ db: deps.db, clock: deps.clock, source }, client);
    return {
      role: rc.role, broker, source, bus, engine, periodicMs: 0,
      revocations: createBrokerRevocationHub(broker, deps.onError),
      serve: () => {},
      async close() {
        source.stop();
        client.close();
        await broker.close();
      },
    };
  }
  // all / engine: this process owns the market and matching.
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  if (rc.standby) {
    let said = false;
    while (!(await broker.acquire(ENGINE_LOCK, owner, ENGINE_LEASE_MS))) {
      if (!said) deps.log(`engine standby: waiting for the broker lock "${ENGINE_LOCK}" (held by ${(await broker.holder(ENGINE_LOCK)) ?? 'unknown'})`);
      said = true;
      await new Promise((r) => setTimeout(r, STANDBY_POLL_MS));
    }
    if (said) deps.log('engine standby: took the broker lock; starting the engine');
  } else if (!(await broker.acquire(ENGINE_LOCK, owner, ENGINE_LEASE_MS))) {
    const holder = await broker.holder(ENGINE_LOCK);
    await broker.close();
    throw new EngineLockHeld(holder);
  }
  let renewing = true;
  const renew = setInterval(() => {
    broker.acquire(ENGINE_LOCK, owner, ENGINE_LEASE_MS).then(
      (held) => {
        if (!held && renewing) {
          renewing = false;
          deps.onLost();
        }
      },
      deps.onError,
    );
  }, ENGINE_LEASE_MS / 3);
  renew.unref();
  const source = deps.createSource();
  const offMarket = shared ? publishMarket(source, broker, owner) : () => {};
  const bus = shared ? createBrokerUserBus(broker, { publishAlways: true, onError: deps.onError }) : undefined;
  let offServe = (): void => {};
  const setup: RoleSetup = {
    role: rc.role, broker, source,
    serve(tradingEngine) {
      if (tradingEngine) offServe = serveEngine(broker, engineHandlers(tradingEngine, source, owner), deps.onError);
    },
    async close() {
      renewing = false;
      clearInterval(renew);
      offServe();
      offMarket();
      await broker.release(ENGINE_LOCK, owner).catch(deps.onError);
      await broker.close();
    },
  };
  if (bus) setup.bus = bus;
  if (shared) setup.revocations = createBrokerRevocationHub(broker, deps.onError);
  return setup;
}

/** The broker's rate limits for processes that share one (undefined: the app's in-process ones). */
export function sharedLimits(setup: RoleSetup, scale: number): RateLimits | undefined {
  return setup.broker.kind === 'memory' ? undefined : brokerRateLimits(setup.broker, scale);
}
