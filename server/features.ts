import type { FastifyPluginAsync } from 'fastify';
import type { Db } from './db/connection.ts';
import type { ServerClock } from './http/deps.ts';
import type { UserEventBus } from './ws/userBus.ts';
import { compensationPlugin } from './compensation/routes.ts';
import { kycPlugin } from './kyc/routes.ts';
import { vouchersPlugin } from './vouchers/routes.ts';

/** What an account feature (KYC, compensation, vouchers, ...) may use. */
export interface FeatureDeps {
  db: Db;
  clock: ServerClock;
  /** Pushes user-socket frames (e.g. a KYC decision); absent in tests that run without sockets. */
  bus?: UserEventBus;
  /**
   * Period of the features' background jobs (e.g. compensation payouts) in ms; 0 = no timer, the
   * caller runs the jobs by hand after moving its clock (tests).
   */
  periodicMs?: number;
}

/**
 * The account features' route plugins, each registered with its own prefix under /api, for
 * `buildApp({ plugins })`. One list so server.ts, the recorders and the test harnesses serve the
 * same features. Append a feature here; keep each feature's code in its own folder.
 */
export function createFeatures(deps: FeatureDeps): FastifyPluginAsync[] {
  void deps;
  return [
    compensationPlugin(deps),
    kycPlugin(deps),
    vouchersPlugin(deps),
  ];
}
