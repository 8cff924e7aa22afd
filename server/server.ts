import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrations.ts';
import { purgeMailSecrets } from './db/repos/mailCodes.ts';
import { seedDemo } from './db/seed.ts';
import { DEMO_ACCOUNT } from './services/accounts.ts';
import { createPlatform } from './platform.ts';
import { createFeatures } from './features.ts';

/**
 * `npm run serve`: config → database (migrated, seeded) → app → listen. The only module that
 * listens or handles signals; everything else is built by buildApp so tests can run it in-process.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { db, dialect } = openDatabase(config);
  await migrateToLatest(db, dialect);
  const clock = { now: () => Date.now() };
  await seedDemo(db, clock.now());
  // A database that ran in development may hold mailed codes in clear: production keeps none.
  if (config.production) await purgeMailSecrets(db, clock.now());
  const platform = createPlatform({ db, clock });
  // Every feature (trading, money, compensation, ...) follows the platform's market source and pushes on its user bus.
  const app = buildApp({ db, clock, config, plugins: [...platform.plugins, ...createFeatures({ db, clock, bus: platform.bus, source: platform.source })] });

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

  await app.listen({ host: config.host, port: config.port });
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
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
