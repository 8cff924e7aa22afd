import type { FastifyPluginAsync } from 'fastify';
import type { Db } from './db/connection.ts';
import type { ServerClock } from './http/deps.ts';
import { socketAuthenticator } from './http/auth.ts';
import { createMarketSource } from './market/createSource.ts';
import type { MarketSource } from './market/source.ts';
import { marketPlugin } from './market/plugin.ts';
import { createUserEventBus } from './ws/userBus.ts';
import type { UserEventBus } from './ws/userBus.ts';
import { userSocketPlugin } from './ws/userSocket.ts';

/** The live parts of the platform beside the /api/user routes: the market source and both sockets. */
export interface Platform {
  source: MarketSource;
  bus: UserEventBus;
  /** Route plugins for `buildApp({ plugins })`. */
  plugins: FastifyPluginAsync[];
}

/**
 * Builds the market source (MARKET_SOURCE, MARKET_SEED, ...) on the same clock that drives it, the
 * user event bus, and the plugins for /api/market/*, /api/ws/market and /api/ws/user. `source`
 * replaces the configured one (e.g. a market moved by hand in a recorder or a test).
 */
export function createPlatform({ db, clock, source: given, bus: givenBus }: { db: Db; clock: ServerClock; source?: MarketSource; bus?: UserEventBus }): Platform {
  const source = given ?? createMarketSource(clock.now());
  // Processes that share a broker pass its bus (server/broker/channels.ts).
  const bus = givenBus ?? createUserEventBus((err) => console.error('user bus listener failed', err));
  const plugins: FastifyPluginAsync[] = [
    async (app) => {
      await app.register(marketPlugin, { source, clock, steering: app.deps.config.marketSteering === true });
    },
    async (app) => {
      await app.register(userSocketPlugin, {
        bus,
        clock,
        revocations: app.deps.revocations,
        authenticate: socketAuthenticator(db, clock),
      });
    },
  ];
  return { source, bus, plugins };
}
