import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Db } from './db/connection.ts';
import type { ServerClock } from './http/deps.ts';
import type { MarketSource } from './market/source.ts';
import type { UserEventBus } from './ws/userBus.ts';
import { compensationPlugin, COMPENSATION_JOB_MS } from './compensation/routes.ts';
import { runCompensationJobs } from './compensation/service.ts';
import { kycPlugin } from './kyc/routes.ts';
import { moneyPlugin } from './money/routes.ts';
import { MONEY_JOB_MS, runMoneyJobs } from './money/jobs.ts';
import { createTrading } from './trading/wiring.ts';
import { vouchersPlugin } from './vouchers/routes.ts';

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
   * the caller runs the jobs by hand with {@link runFeatureJobs} after moving its clock (tests).
   */
  periodicMs?: number;
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
 * is run on a timer by {@link createFeatures}, never by the feature itself.
 */
export interface ServerFeature {
  name: string;
  plugin(deps: FeatureDeps): FastifyPluginAsync | null;
  job?: FeatureJob;
}

/**
 * THE list of server features. Append a feature here and it is served by server.ts, the
 * recorders and the test harnesses alike, and its routes appear in the OpenAPI document.
 */
export const SERVER_FEATURES: readonly ServerFeature[] = [
  {
    name: 'trading',
    plugin: (d) => (d.source ? createTrading({ db: d.db, clock: d.clock, source: d.source, ...(d.bus ? { bus: d.bus } : {}), ...(d.periodicMs !== undefined ? { periodicMs: d.periodicMs } : {}) }).plugin : null),
  },
  { name: 'money', plugin: moneyPlugin, job: { everyMs: MONEY_JOB_MS, run: (d, now) => runMoneyJobs(d, now) } },
  { name: 'compensation', plugin: compensationPlugin, job: { everyMs: COMPENSATION_JOB_MS, run: (d, now) => runCompensationJobs(d.db, now, d.bus) } },
  { name: 'kyc', plugin: kycPlugin },
  { name: 'vouchers', plugin: vouchersPlugin },
];

function installJob(app: FastifyInstance, name: string, job: FeatureJob, deps: FeatureDeps): void {
  const period = deps.periodicMs ?? job.everyMs;
  if (period <= 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    job
      .run(deps, deps.clock.now())
      .catch((err: unknown) => app.log.error({ err }, `${name} job failed`))
      .finally(() => {
        running = false;
      });
  }, period);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

/**
 * The route plugins of every feature in {@link SERVER_FEATURES} (or only the `only` ones), for
 * `buildApp({ plugins })`, each with its job's timer attached.
 */
export function createFeatures(deps: FeatureDeps, only?: readonly string[]): FastifyPluginAsync[] {
  const out: FastifyPluginAsync[] = [];
  for (const f of SERVER_FEATURES) {
    if (only && !only.includes(f.name)) continue;
    const plugin = f.plugin(deps);
    if (!plugin) continue;
    out.push(async (app) => {
      if (f.job) installJob(app, f.name, f.job, deps);
      await app.register(plugin);
    });
  }
  return out;
}

/** Runs every feature's job once at `now` (tests move their clock, then call this). */
export async function runFeatureJobs(deps: FeatureDeps, now = deps.clock.now(), only?: readonly string[]): Promise<void> {
  for (const f of SERVER_FEATURES) if (f.job && (!only || only.includes(f.name))) await f.job.run(deps, now);
}
