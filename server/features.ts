import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { FeatureDeps, FeatureJob, ServerFeature } from './featureTypes.ts';
import { compensationPlugin, COMPENSATION_JOB_MS } from './compensation/routes.ts';
import { runCompensationJobs } from './compensation/service.ts';
import { dashboardPlugin } from './dashboard/routes.ts';
import { helpPlugin } from './help/routes.ts';
import { copyPlugin, COPY_JOB_MS, runCopyJobs } from './copy/routes.ts';
import { kycPlugin } from './kyc/routes.ts';
import { moneyPlugin } from './money/routes.ts';
import { notifyPlugin, NOTIFY_JOB_MS, runNotifyJobs } from './notify/routes.ts';
import { MONEY_JOB_MS, runMoneyJobs } from './money/jobs.ts';
import { createTrading } from './trading/wiring.ts';
import { vouchersPlugin } from './vouchers/routes.ts';
import { referralPlugin } from './referral/routes.ts';

export type { FeatureDeps, FeatureJob, ServerFeature } from './featureTypes.ts';

/**
 * THE list of server features. Append a feature here and it is served by server.ts, the
 * recorders and the test harnesses alike, and its routes appear in the OpenAPI document.
 */
export const SERVER_FEATURES: readonly ServerFeature[] = [
  {
    name: 'trading',
    plugin: (d) => (d.source ? createTrading({ db: d.db, clock: d.clock, source: d.source, ...(d.bus ? { bus: d.bus } : {}), ...(d.periodicMs !== undefined ? { periodicMs: d.periodicMs } : {}), ...(d.engine ? { engine: d.engine } : {}), ...(d.engineMode ? { mode: d.engineMode } : {}) }).plugin : null),
  },
  { name: 'money', plugin: moneyPlugin, job: { everyMs: MONEY_JOB_MS, run: (d, now) => runMoneyJobs(d, now) } },
  { name: 'compensation', plugin: compensationPlugin, job: { everyMs: COMPENSATION_JOB_MS, run: (d, now) => runCompensationJobs(d.db, now, d.bus) } },
  { name: 'kyc', plugin: kycPlugin },
  { name: 'vouchers', plugin: vouchersPlugin },
  { name: 'referral', plugin: referralPlugin },
  { name: 'help', plugin: helpPlugin },
  { name: 'notify', plugin: notifyPlugin, job: { everyMs: NOTIFY_JOB_MS, run: (d) => runNotifyJobs(d) } },
  { name: 'dashboard', plugin: dashboardPlugin },
  { name: 'copy', plugin: (d) => (d.source ? copyPlugin(d) : null), job: { everyMs: COPY_JOB_MS, run: (d, now) => runCopyJobs(d, now) } },
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
