import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { ServerConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/connection.ts';
import type { DialectName } from '../../server/db/migrations.ts';
import { latestMails } from '../../server/db/repos/mailCodes.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { OPERATOR_HEADER } from '../../server/http/operator.ts';
import { createRateLimits, SlidingWindowLimiter } from '../../server/http/rateLimit.ts';
import type { RateLimits } from '../../server/http/rateLimit.ts';
import type { Envelope } from '../../src/protocol/envelope.ts';
import { openTestDb, sharedTestDb } from './testDb.ts';

/** A clock the test moves by hand. */
export class ManualClock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** 2026-01-01T00:00:00Z: far from any TOTP step boundary issue, and fixed. */
export const T0 = Date.UTC(2026, 0, 1);

/** The operator token every harness server is started with; `call` sends it on /dev/* paths. */
export const TEST_OPERATOR_TOKEN = 'test-operator-token-0123456789abcdef0123456789abcdef';

/** Limits high enough that functional tests never meet them; rate-limit tests use `createRateLimits()`. */
export function relaxedLimits(): RateLimits {
  return {
    loginPerIp: new SlidingWindowLimiter(10_000, 60_000),
    loginFailuresPerAccount: new SlidingWindowLimiter(10_000, 60_000),
    mailPerIp: new SlidingWindowLimiter(10_000, 60_000),
    ordersPer10s: new SlidingWindowLimiter(1_000_000, 10_000),
    ordersPerMinute: new SlidingWindowLimiter(1_000_000, 60_000),
  };
}

export interface Harness {
  app: FastifyInstance;
  db: Db;
  /** sqlite, or postgres under TEST_DATABASE=postgres (tests/server/testDb.ts). */
  dialect: DialectName;
  /** postgres://… of the database (PostgreSQL only), for `shareDatabase`. */
  dbUrl: string | null;
  clock: ManualClock;
  config: ServerConfig;
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The trading engine the server tests run on: TEST_ENGINE=memory runs them on the memory engine
 * behind a journal (server/engine/memoryEngine.ts, issue 28), anything else on the SQL engine.
 */
export function testEngineMode(): 'sql' | 'memory' {
  return process.env.TEST_ENGINE === 'memory' ? 'memory' : 'sql';
}

export interface HarnessOptions {
  limits?: RateLimits;
  config?: Partial<ServerConfig>;
  seed?: boolean;
  plugins?: FastifyPluginAsync[];
  /** PostgreSQL only: serve another harness's database (its `dbUrl`) through a pool of this server's own, as a second process would. */
  shareDatabase?: string;
  /** Listen address (default 127.0.0.1); '0.0.0.0' lets a test call in from a non-loopback address. */
  listenHost?: string;
  /** Serve this DATA_DIR (its SQLite file, the memory engine's journal) and leave it on close: a restart test starts a second server on it. */
  dataDir?: string;
}

/**
 * Starts the REAL server (file database in a temp DATA_DIR, or a fresh PostgreSQL database under
 * TEST_DATABASE=postgres; port 0) and returns its base URL.
 * Password hashes use scrypt N=2^10 here (config.passwordHashLogN) so suites that sign up many users
 * stay fast; tests/server/security*.test.ts prove the production default is OWASP's 2^17.
 */
export async function startServer(opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'rf-server-'));
  const config: ServerConfig = { ...loadConfig({}), dataDir, logLevel: 'silent', serveStatic: false, passwordHashLogN: 10, operatorToken: TEST_OPERATOR_TOKEN, engine: testEngineMode(), ...opts.config };
  const testDb = opts.shareDatabase ? sharedTestDb(opts.shareDatabase) : await openTestDb(dataDir);
  const { db } = testDb;
  const clock = new ManualClock(T0);
  if (opts.seed) await seedDemo(db, clock.now());
  const app = buildApp({ db, clock, config, limits: opts.limits ?? relaxedLimits(), plugins: opts.plugins ?? [] });
  await app.listen({ host: opts.listenHost ?? '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    db,
    dialect: testDb.dialect,
    dbUrl: testDb.url,
    clock,
    config,
    dataDir,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await testDb.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  /** JSON body (object) or a raw string with `contentType`. */
  body?: unknown;
  form?: Record<string, string>;
  multipart?: FormData;
  token?: string;
  headers?: Record<string, string>;
  contentType?: string;
  /** Send the operator token (x-operator-token); default: on for /dev/* paths, as the operator commands do. */
  operator?: boolean;
}

/** One HTTP call; asserts nothing, returns the parsed envelope plus the raw response. */
export async function call<T = unknown>(h: Harness, path: string, o: CallOptions = {}): Promise<Envelope<T> & { res: Response }> {
  const headers: Record<string, string> = { Client: 'web', ...o.headers };
  if (o.token) headers.Authorization = o.token;
  if ((o.operator ?? path.startsWith('/dev/')) && h.config.operatorToken) headers[OPERATOR_HEADER] ??= h.config.operatorToken;
  let body: BodyInit | undefined;
  if (o.form) {
    body = new URLSearchParams(o.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (o.multipart) {
    body = o.multipart;
  } else if (typeof o.body === 'string') {
    body = o.body;
    headers['Content-Type'] = o.contentType ?? 'application/json';
  } else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${h.base}/api${path}`, { method: o.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const env = (await res.json()) as Envelope<T>;
  return { ...env, res };
}

/** The last code mailed to `email` (read from the outbox table, as `npm run outbox` does). */
export async function lastCode(h: Harness, email: string): Promise<string> {
  const [mail] = await latestMails(h.db, email, 1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail.code;
}

/** Mails a code and reads it back; a 'security' code needs the session's `token` (it goes to that account's email only). */
export async function sendCode(h: Harness, email: string, type: 'register' | 'login' | 'reset' | 'security', token?: string): Promise<string> {
  const r = await call(h, '/user/sendMailCode', { body: { email, type }, ...(token !== undefined ? { token } : {}) });
  if (r.code !== 200) throw new Error(`sendMailCode ${type} for ${email}: ${r.code} ${r.msg}`);
  return lastCode(h, email);
}

export async function register(h: Harness, email: string, password = 'secret12', extra: Record<string, unknown> = {}): Promise<void> {
  const code = await sendCode(h, email, 'register');
  const r = await call(h, '/user/register', { body: { email, password, confirmPassword: password, code, agree: true, ...extra } });
  if (r.code !== 200) throw new Error(`register ${email}: ${r.code} ${r.msg}`);
}

/** Email-code login; moves the clock past the resend window first so repeated logins work. */
export async function login(h: Harness, email: string, password = 'secret12'): Promise<string> {
  h.clock.advance(61_000);
  const code = await sendCode(h, email, 'login');
  const r = await call<{ token: string }>(h, '/user/login', { form: { email, password, code } });
  if (r.code !== 200) throw new Error(`login ${email}: ${r.code} ${r.msg}`);
  return r.data.token;
}

export { createRateLimits };
