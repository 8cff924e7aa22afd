import { resolve } from 'node:path';

/** Pino log levels accepted by LOG_LEVEL. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Everything the server reads from its environment, resolved once at start.
 * `buildApp` receives this object, never `process.env`, so tests can build any variant.
 */
export interface ServerConfig {
  host: string;
  port: number;
  /** Holds `app.db` (SQLite) and `avatars/`. */
  dataDir: string;
  /** Delete the database file before opening it (FRESH_DB=1, used by the e2e tests). */
  freshDb: boolean;
  logLevel: LogLevel;
  /** Enables GET /api/dev/outbox: off by default when NODE_ENV=production. */
  exposeOutbox: boolean;
  /** Serve the built front end from `distDir` with the history-mode fallback (SERVE_STATIC=0 turns it off for `npm run dev`). */
  serveStatic: boolean;
  distDir: string;
  /** MAIL_CODE_ECHO=1: also print every mailed code on stdout, whatever LOG_LEVEL is (e2e runs at warn). */
  mailCodeEcho: boolean;
  /**
   * RATE_LIMIT_SCALE multiplies every rate-limit budget (default 1). The browser tests share one IP
   * for many accounts and set it high; production keeps 1.
   */
  rateLimitScale: number;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

/** Reads the config from an env map (defaults documented in docs/API.md). Throws on a malformed PORT or LOG_LEVEL: a start-up programmer error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`Invalid PORT: ${env.PORT}`);
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`Invalid LOG_LEVEL: ${env.LOG_LEVEL}`);
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    dataDir: resolve(env.DATA_DIR ?? './data'),
    freshDb: flag(env.FRESH_DB, false),
    logLevel,
    exposeOutbox: flag(env.EXPOSE_OUTBOX, env.NODE_ENV !== 'production'),
    serveStatic: flag(env.SERVE_STATIC, true),
    distDir: resolve(env.DIST_DIR ?? './dist'),
    mailCodeEcho: flag(env.MAIL_CODE_ECHO, false),
    rateLimitScale: rateLimitScale(env.RATE_LIMIT_SCALE),
  };
}

function rateLimitScale(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`Invalid RATE_LIMIT_SCALE: ${value}`);
  return n;
}
