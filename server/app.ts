import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import { AVATAR_MAX_BYTES } from '../src/protocol/user.ts';
import type { ServerConfig, TrustProxy } from './config.ts';
import type { Db } from './db/connection.ts';
import type { AppDeps, ServerClock } from './http/deps.ts';
import { clientErrorHandler, installErrorHandling } from './http/errors.ts';
import { createRateLimits } from './http/rateLimit.ts';
import type { RateLimits } from './http/rateLimit.ts';
import { LOGGER_REDACTION } from './http/logRedact.ts';
import { installSecurityHeaders } from './http/security.ts';
import { installStaticSite } from './http/staticSite.ts';
import { installJsonCompression } from './http/compressJson.ts';
import { createMailer } from './mail/mailer.ts';
import type { Mailer } from './mail/mailer.ts';
import { apiDocsRoutes } from './openapi.ts';
import { createRevocationHub } from './ws/revocations.ts';
import type { RevocationHub } from './ws/revocations.ts';
import { miscRoutes } from './routes/misc.ts';
import { userAuthRoutes } from './routes/userAuth.ts';
import { userGoogleRoutes } from './routes/userGoogle.ts';
import { userProfileRoutes } from './routes/userProfile.ts';

export type { AppDeps, ServerClock } from './http/deps.ts';

/** How long a plugin may take to start: the engine's recovery included (issue 28). */
export const PLUGIN_TIMEOUT_MS = 300_000;

/** JSON and form bodies: 1 MB. Multipart has its own limits (one 2 MB file plus small fields). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildAppOptions {
  db: Db;
  clock: ServerClock;
  config: ServerConfig;
  /**
   * Extra route plugins (e.g. /api/ws/market and /api/ws/user), registered after
   * @fastify/websocket and the /api/user routes. They see `app.deps` and inherit the envelope
   * error handler and security headers. Register them with their own prefix.
   */
  plugins?: FastifyPluginAsync[];
  /** Rate limiters; tests pass fresh ones to observe or tighten them. */
  limits?: RateLimits;
  /** Default: SMTP from `config.mail`, or none. */
  mailer?: Mailer;
  /** Session revocations; default in-process. Gateways pass the broker's (server/broker/channels.ts). */
  revocations?: RevocationHub;
}

/** A hop count as the trust function proxy-addr builds for it (Fastify's types take no number): the n nearest hops are proxies. */
function fastifyTrustProxy(t: TrustProxy): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof t === 'number' ? (_addr, hop) => hop < t : t;
}

/**
 * Builds the HTTP app without listening (server.ts listens; tests listen on port 0).
 * Under /api every answer is the `{code,msg,data}` envelope with HTTP 200; elsewhere it
 * serves dist/ with the history-mode fallback. Paths /api/ws/* are left to `plugins`.
 * The caller owns `db`: close the app first, then `db.destroy()`.
 */
export function buildApp({
  db, clock, config, plugins = [], limits = createRateLimits(config.rateLimitScale), mailer = createMailer(config.mail), revocations: givenRevocations,
}: BuildAppOptions): FastifyInstance {
  const app = Fastify({
    logger: { level: config.logLevel, ...LOGGER_REDACTION },
    bodyLimit: BODY_LIMIT_BYTES,
    // A plugin may take this long to start (Fastify's default is 10 s). The memory engine's start
    // (ENGINE=memory) replays the journal since its last snapshot and catches the projection up
    // before the routes open: killed under load (tests/server/engineCrash.test.ts, load average 18)
    // a restart took longer than 10 s and the server exited with FST_ERR_PLUGIN_TIMEOUT; as long as
    // the replay takes that long (the journal since the last snapshot only grows until the next one)
    // every restart by a supervisor fails the same way.
    pluginTimeout: PLUGIN_TIMEOUT_MS,
    // req.ip from X-Forwarded-For only when TRUST_PROXY says which proxies to believe (ServerConfig.trustProxy).
    trustProxy: fastifyTrustProxy(config.trustProxy ?? false),
    clientErrorHandler,
    // Per-request lines only at debug/trace: at info the log stays readable (mail codes, errors).
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  const revocations = givenRevocations ?? createRevocationHub((err) => app.log.error({ err }, 'revocation listener failed'));
  const deps: AppDeps = { db, clock, config, limits, revocations, mailer, accountHooks: { passwordChanged: [] } };
  app.decorate('deps', deps);
  app.addHook('onClose', async () => mailer.close());

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  void app.register(multipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12, headerPairs: 100 },
  });
  void app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  installSecurityHeaders(app);
  installJsonCompression(app);
  const fallback = installStaticSite(app, config.distDir, config.serveStatic);
  installErrorHandling(app, fallback);

  void app.register(miscRoutes, { prefix: '/api' });
  void app.register(apiDocsRoutes, { prefix: '/api' });
  void app.register(userAuthRoutes, { prefix: '/api/user' });
  void app.register(userProfileRoutes, { prefix: '/api/user' });
  void app.register(userGoogleRoutes, { prefix: '/api/user' });
  for (const plugin of plugins) void app.register(plugin);
  return app;
}
