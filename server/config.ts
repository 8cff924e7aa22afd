import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { DEFAULT_SCRYPT_LOG_N } from './services/passwords.ts';

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
  /**
   * DATABASE_URL=postgres://… runs on PostgreSQL (docs/DATABASE.md); null keeps SQLite in `dataDir`.
   * Avatars stay in `dataDir` either way.
   */
  databaseUrl: string | null;
  /** Delete the database file before opening it (FRESH_DB=1, used by the e2e tests). */
  freshDb: boolean;
  logLevel: LogLevel;
  /**
   * MARKET_STEERING=1: POST /api/dev/market/steer holds a symbol's simulated price where a test
   * puts it (browser tests cross triggers without waiting for the random walk), and the simulated
   * lead traders trade only when asked (POST /api/dev/copy/sim). Refused at start under NODE_ENV=production.
   */
  marketSteering?: boolean;
  /** Enables GET /api/dev/outbox: off by default when NODE_ENV=production. */
  exposeOutbox: boolean;
  /** Serve the built front end from `distDir` with the history-mode fallback (SERVE_STATIC=0 turns it off for `npm run dev`). */
  serveStatic: boolean;
  distDir: string;
  /**
   * MAIL_CODE_ECHO=1: also print every mailed code on stdout, whatever LOG_LEVEL is (e2e runs at warn).
   * Always false in production.
   */
  mailCodeEcho: boolean;
  /**
   * NODE_ENV=production: no mail code is ever written to the log, stdout or the `outbox` table
   * (mail goes only through `mail.smtp`); docs/SECURITY.md.
   */
  production: boolean;
  /** Where mail goes besides the dev outbox (docs/SECURITY.md, README "Mail"). */
  mail: MailConfig;
  /**
   * Key of the HMAC that `mail_codes.code_hash` holds (MAIL_CODE_SECRET). Without it a random key
   * per process: codes issued before a restart then no longer verify. Set it when several server
   * processes share one database.
   */
  mailCodeSecret: string;
  /**
   * scrypt cost as log2(N) for new password hashes and the login-time upgrade. Production is always
   * the OWASP value (17); tests lower it, for speed: the server tests in their config, the browser
   * tests' servers with TEST_PASSWORD_HASH_LOG_N (10-17), which the server refuses to start with
   * under NODE_ENV=production.
   */
  passwordHashLogN: number;
  /**
   * RATE_LIMIT_SCALE multiplies every rate-limit budget (default 1). The browser tests share one IP
   * for many accounts and set it high; production keeps 1.
   */
  rateLimitScale: number;
  /**
   * ENGINE: which trading engine serves orders. `sql` (the default): the SQL engine
   * (server/trading/engine.ts, each command a database transaction). `memory`: the in-memory engine
   * behind a journal (server/engine/memoryEngine.ts, issue 28; journal and snapshots under
   * DATA_DIR/engine, the tables written behind by the projector). Absent in a config object = sql.
   */
  engine?: EngineMode;
  /**
   * TRUST_PROXY: whether the client IP (rate limits, sessions, login history) is taken from
   * X-Forwarded-For, for gateways behind a load balancer. Unset/0/false: never (the socket's peer
   * address; a client could otherwise pick its own IP and dodge every per-IP limit). A positive
   * integer n: trust n proxy hops (1 = one load balancer; the address it appended is used).
   * `true`: trust every hop (only when the proxy overwrites the header). Otherwise a comma list of
   * proxy addresses/CIDRs to trust. Absent in a config object = false.
   */
  trustProxy?: TrustProxy;
  /**
   * The operator credential (server/http/operator.ts, docs/SECURITY.md): OPERATOR_TOKEN, at least
   * 32 characters. Null here means "not from the environment": server.ts then reads or creates
   * DATA_DIR/operator.token. A config that stays null serves no operator route (401).
   */
  operatorToken: string | null;
  /** OPERATOR_REMOTE=1: operator routes also answer non-loopback clients (still with the token). */
  operatorRemote: boolean;
  /**
   * DEMO_CREDIT: whether a new account receives the demo credit (10 000 USDT in the fund and in the
   * perpetual wallet, ledger entries marked as demo credit, docs/API.md). Default on; DEMO_CREDIT=0
   * turns it off; always off under NODE_ENV=production. Absent in a config object = on.
   */
  demoCredit?: boolean;
  /**
   * METRICS_PORT: serve Prometheus metrics (`GET /metrics`, server/http/metrics.ts) on this port of
   * 127.0.0.1, on a listener of its own (never on the public port, so never behind the balancer).
   * Unset: no metrics endpoint. Absent in a config object = none.
   */
  metricsPort?: number | null;
}

/** OPERATOR_TOKEN shorter than this refuses to start. */
export const OPERATOR_TOKEN_MIN_LENGTH = 32;

/** OPERATOR_TOKEN, trimmed; null when unset; throws when shorter than {@link OPERATOR_TOKEN_MIN_LENGTH}. */
export function parseOperatorToken(value: string | undefined): string | null {
  const v = value?.trim() ?? '';
  if (v === '') return null;
  if (v.length < OPERATOR_TOKEN_MIN_LENGTH) throw new Error(`OPERATOR_TOKEN must be at least ${OPERATOR_TOKEN_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`);
  return v;
}

/** Fastify's `trustProxy` values that TRUST_PROXY can select. */
export type TrustProxy = boolean | number | string[];

/** Parses TRUST_PROXY (see ServerConfig.trustProxy). */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = value?.trim() ?? '';
  if (v === '' || /^(0|false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on|all)$/i.test(v)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((x) => x.trim()).filter((x) => x !== '');
  for (const x of list) if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(x) && !/^(loopback|linklocal|uniquelocal)$/.test(x)) throw new Error(`Invalid TRUST_PROXY entry: ${x}`);
  return list;
}

/** SMTP settings for nodemailer (SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASS, SMTP_TLS_REJECT_UNAUTHORIZED). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  pass?: string;
  /** Default true; false only for a self-signed test server. */
  rejectUnauthorized: boolean;
}

export interface MailConfig {
  /** MAIL_FROM, default `RiskFree <no-reply@localhost>`. */
  from: string;
  /** Null without SMTP_HOST: in development the outbox table is the only mailbox. */
  smtp: SmtpSettings | null;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

/** Reads the config from an env map (defaults documented in docs/API.md). Throws on a malformed PORT or LOG_LEVEL: a start-up programmer error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`Invalid PORT: ${env.PORT}`);
  const production = env.NODE_ENV === 'production';
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`Invalid LOG_LEVEL: ${env.LOG_LEVEL}`);
  const marketSteering = flag(env.MARKET_STEERING, false);
  const passwordHashLogN = testPasswordHashLogN(env.TEST_PASSWORD_HASH_LOG_N, production);
  if (marketSteering && production) throw new Error('MARKET_STEERING is for tests and is refused under NODE_ENV=production');
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL?.trim() || null,
    freshDb: flag(env.FRESH_DB, false),
    logLevel,
    marketSteering,
    exposeOutbox: flag(env.EXPOSE_OUTBOX, env.NODE_ENV !== 'production'),
    serveStatic: flag(env.SERVE_STATIC, true),
    distDir: resolve(env.DIST_DIR ?? './dist'),
    mailCodeEcho: !production && flag(env.MAIL_CODE_ECHO, false),
    production,
    mail: { from: env.MAIL_FROM?.trim() || 'RiskFree <no-reply@localhost>', smtp: smtpSettings(env) },
    mailCodeSecret: env.MAIL_CODE_SECRET || randomBytes(32).toString('hex'),
    passwordHashLogN,
    rateLimitScale: rateLimitScale(env.RATE_LIMIT_SCALE),
    engine: engineMode(env.ENGINE),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    operatorToken: parseOperatorToken(env.OPERATOR_TOKEN),
    operatorRemote: flag(env.OPERATOR_REMOTE, false),
    demoCredit: !production && flag(env.DEMO_CREDIT, true),
    metricsPort: metricsPort(env.METRICS_PORT),
  };
}

/** TEST_PASSWORD_HASH_LOG_N (see ServerConfig.passwordHashLogN); unset: the OWASP default. */
function testPasswordHashLogN(value: string | undefined, production: boolean): number {
  if (value === undefined || value === '') return DEFAULT_SCRYPT_LOG_N;
  if (production) throw new Error('TEST_PASSWORD_HASH_LOG_N is for test servers and is refused under NODE_ENV=production');
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > DEFAULT_SCRYPT_LOG_N) throw new Error(`Invalid TEST_PASSWORD_HASH_LOG_N: ${value} (10-${DEFAULT_SCRYPT_LOG_N})`);
  return n;
}

export type EngineMode = 'sql' | 'memory';

function engineMode(value: string | undefined): EngineMode {
  if (value === undefined || value === '' || value === 'sql') return 'sql';
  if (value === 'memory') return 'memory';
  throw new Error(`Invalid ENGINE: ${value} (sql or memory)`);
}

function metricsPort(value: string | undefined): number | null {
  const v = value?.trim() ?? '';
  if (v === '') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new Error(`Invalid METRICS_PORT: ${value}`);
  return n;
}

function rateLimitScale(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`Invalid RATE_LIMIT_SCALE: ${value}`);
  return n;
}

function smtpSettings(env: NodeJS.ProcessEnv): SmtpSettings | null {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const secure = flag(env.SMTP_SECURE, false);
  const port = Number(env.SMTP_PORT ?? (secure ? 465 : 587));
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) throw new Error(`Invalid SMTP_PORT: ${env.SMTP_PORT}`);
  const settings: SmtpSettings = { host, port, secure, rejectUnauthorized: flag(env.SMTP_TLS_REJECT_UNAUTHORIZED, true) };
  if (env.SMTP_USER) settings.user = env.SMTP_USER;
  if (env.SMTP_PASS) settings.pass = env.SMTP_PASS;
  return settings;
}
