import { loadConfig } from './config.ts';
import { loadOrCreateOperatorToken, OPERATOR_HEADER } from './http/operator.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrations.ts';
import { purgeMailSecrets } from './db/repos/mailCodes.ts';
import { seedDemo } from './db/seed.ts';
import { DEMO_ACCOUNT } from './services/accounts.ts';
import { createPlatform } from './platform.ts';
import { createFeatures } from './features.ts';
import { createMarketSource } from './market/createSource.ts';
import { EngineLockHeld, loadRoleConfig, setupRole, sharedLimits } from './broker/roles.ts';
import { tradingEngineOf } from './trading/wiring.ts';
import { ServerMetrics, startMetricsServer } from './http/metrics.ts';

/**
 * `npm run serve`: config → database (migrated, seeded) → app → listen. The only module that
 * listens or handles signals; everything else is built by buildApp so tests can run it in-process.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // The operator credential (docs/SECURITY.md): OPERATOR_TOKEN, else DATA_DIR/operator.token (created once, shown once).
  let operatorNote: string[] = [];
  if (config.operatorToken === null && config.exposeOutbox) {
    const op = loadOrCreateOperatorToken(config.dataDir);
    config.operatorToken = op.token;
    operatorNote = op.created
      ? [`  Operator token (created in ${op.file}, mode 0600; shown only this once): ${op.token}`, `  Operator commands (npm run wallet, kyc, copy) read it from there; send it as ${OPERATOR_HEADER}.`]
      : [`  Operator token: ${op.file}`];
  } else if (config.operatorToken !== null) {
    operatorNote = ['  Operator token: OPERATOR_TOKEN'];
  }
  if (config.operatorRemote) operatorNote.push('  OPERATOR_REMOTE=1: operator routes also answer non-loopback clients (with the token)');
  // ROLE / BROKER_URL (docs/SCALING.md): without them, one process does everything, as always.
  const roleConfig = loadRoleConfig();
  const gateway = roleConfig.role === 'gateway';
  const { db, dialect } = openDatabase({ ...config, freshDb: config.freshDb && !gateway });
  await migrateToLatest(db, dialect);
  const clock = { now: () => Date.now() };
  if (!gateway) await seedDemo(db, clock.now());
  // A database that ran in development may hold mailed codes in clear: production keeps none.
  if (config.production) await purgeMailSecrets(db, clock.now());
  let lost = (): void => {};
  const role = await setupRole(roleConfig, {
    db,
    clock,
    createSource: () => createMarketSource(clock.now()),
    log: (msg) => console.log(msg),
    onError: (err) => console.error('broker', err),
    onLost: () => lost(),
  }).catch((err: unknown) => {
    if (err instanceof EngineLockHeld) {
      console.error(err.message);
      process.exit(3);
    }
    throw err;
  });
  const platform = createPlatform({ db, clock, source: role.source, ...(role.bus ? { bus: role.bus } : {}) });
  // Every feature (trading, money, compensation, ...) follows the platform's market source and pushes on its user bus.
  const features = createFeatures({
    db, clock, bus: platform.bus, source: platform.source,
    ...(role.engine ? { engine: role.engine } : {}),
    ...(config.engine ? { engineMode: config.engine } : {}),
    ...(config.marketSteering ? { simRounds: false } : {}),
    ...(role.periodicMs !== undefined ? { periodicMs: role.periodicMs } : {}),
  });
  const limits = sharedLimits(role, config.rateLimitScale);
  const app = buildApp({
    db, clock, config, plugins: [...platform.plugins, ...features],
    ...(limits ? { limits } : {}),
    ...(role.revocations ? { revocations: role.revocations } : {}),
  });
  app.addHook('onClose', async () => role.close());
  // METRICS_PORT (docs/SCALING.md "Metrics"): Prometheus text on 127.0.0.1 only, a listener of its own.
  const metrics = config.metricsPort !== null && config.metricsPort !== undefined ? new ServerMetrics({ role: roleConfig.role }) : null;
  metrics?.instrument(app);

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    app
      .close()
      .then(() => db.destroy())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        console.error(err);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  lost = () => {
    // Another engine may start now: this one must stop matching at once.
    console.error('engine: lost the broker lock; exiting');
    process.exit(4);
  };
  let metricsNote: string[] = [];
  if (metrics && config.metricsPort !== null && config.metricsPort !== undefined) {
    // A gateway's engine is the remote one: its figures are its HTTP requests and its process's.
    metrics.watchEngine(gateway ? undefined : tradingEngineOf(db));
    // Unref'd: it never keeps the process up; the exit after app.close() ends it.
    const m = await startMetricsServer(metrics, config.metricsPort);
    metricsNote = [`  Metrics (internal, 127.0.0.1 only): http://127.0.0.1:${m.port}/metrics`];
  }
  await app.listen({ host: config.host, port: config.port });
  if (!gateway) role.serve(tradingEngineOf(db));
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const mailNote = config.production
    ? app.deps.mailer.kind === 'smtp'
      ? `mail via SMTP ${config.mail.smtp?.host}`
      : 'WARNING: no SMTP_HOST, mailed codes cannot be delivered'
    : config.exposeOutbox
      ? `login code by email: GET /api/dev/outbox?email=${DEMO_ACCOUNT.email} or npm run outbox`
      : 'login code by email: npm run outbox';
  const lines = [
    '',
    `  RiskFree trading platform: http://${config.host}:${port}/`,
    config.production ? `  Production mode (${mailNote})` : `  Demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password} (${mailNote})`,
    `  Data: ${config.dataDir}${dialect === 'postgres' ? ' (database: PostgreSQL)' : ''}${config.serveStatic ? '' : ' (static files off)'}`,
    ...(roleConfig.brokerUrl ? [`  Role: ${roleConfig.role} on broker ${roleConfig.brokerUrl}`] : []),
    ...metricsNote,
    ...(config.exposeOutbox ? operatorNote : []),
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
