import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { loadOrCreateOperatorToken, OPERATOR_HEADER, OPERATOR_MSG, OPERATOR_TOKEN_FILE, operatorHeadersFor, operatorTokenMatches } from '../../server/http/operator.ts';
import { API_ROUTES } from '../../src/protocol/api.ts';
import type { Envelope } from '../../src/protocol/envelope.ts';
import { MONEY_PATHS, WALLET_MSG } from '../../src/protocol/wallet.ts';
import type { UserInfo } from '../../src/protocol/user.ts';
import { call, TEST_OPERATOR_TOKEN } from './harness.ts';
import { TRON, startMoney } from './moneyHarness.ts';
import type { MoneyHarness } from './moneyHarness.ts';

/**
 * Issue 29: every state-changing route under /api/dev needs the operator token and a loopback
 * client, over real HTTP. The operator routes come from the route catalogue (API_ROUTES), so a new
 * one is covered without editing this file.
 */

const OPERATOR_ROUTES = API_ROUTES.filter((r) => r.path.startsWith('/api/dev/') && r.path !== '/api/dev/outbox');

/** A body each route accepts or refuses on its own terms (never the operator check). */
function bodyOf(path: string, email: string): object | undefined {
  switch (path) {
    case '/api/dev/money/deposit': return { email, coin: 'USDT', network: 'TRC20', amount: '5' };
    case '/api/dev/money/fast-forward': return { email, hours: 48 };
    case '/api/dev/money/review': return { id: 999_999, decision: 'approve' };
    case '/api/dev/compensation/fast-forward': return { email, days: 1 };
    case '/api/dev/kyc/review': return { email, decision: 'approve' };
    case '/api/dev/copy/review': return { email, decision: 'approve' };
    case '/api/dev/copy/trade': return { traderId: 1, side: 'buy', qty: '0.01' };
    default: return {};
  }
}

async function raw(base: string, method: string, path: string, headers: Record<string, string>, body?: object): Promise<Envelope & { status: number }> {
  const res = await fetch(`${base}${path}`, {
    method: method.toUpperCase(),
    headers: { Client: 'web', ...(body !== undefined && method === 'post' ? { 'Content-Type': 'application/json' } : {}), ...headers },
    ...(method === 'post' ? { body: JSON.stringify(body ?? {}) } : {}),
  });
  return { ...((await res.json()) as Envelope), status: res.status };
}

let m: MoneyHarness;
let user: { token: string; id: number };
const EMAIL = 'op-victim@example.com';

beforeAll(async () => {
  m = await startMoney({ listenHost: '0.0.0.0' });
  user = await m.user(EMAIL);
});
afterAll(async () => m.close());

describe('operator routes over HTTP', () => {
  it('the catalogue lists the operator routes this test covers', () => {
    expect(OPERATOR_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'get /api/dev/money/withdrawals',
      'post /api/dev/compensation/fast-forward',
      'post /api/dev/copy/review',
      'post /api/dev/copy/sim',
      'post /api/dev/copy/trade',
      'post /api/dev/kyc/review',
      'post /api/dev/money/deposit',
      'post /api/dev/money/fast-forward',
      'post /api/dev/money/review',
    ]);
  });

  for (const route of OPERATOR_ROUTES) {
    it(`${route.method.toUpperCase()} ${route.path}: 401 without the token, 401 with a wrong one, served with it`, async () => {
      const body = bodyOf(route.path, EMAIL);
      const none = await raw(m.h.base, route.method, route.path, {}, body);
      expect([none.code, none.msg, none.data]).toEqual([401, OPERATOR_MSG.missing, null]);
      const empty = await raw(m.h.base, route.method, route.path, { [OPERATOR_HEADER]: '' }, body);
      expect([empty.code, empty.msg]).toEqual([401, OPERATOR_MSG.missing]);
      const wrong = await raw(m.h.base, route.method, route.path, { [OPERATOR_HEADER]: `${TEST_OPERATOR_TOKEN.slice(0, -1)}x` }, body);
      expect([wrong.code, wrong.msg, wrong.data]).toEqual([401, OPERATOR_MSG.wrong, null]);
      const prefix = await raw(m.h.base, route.method, route.path, { [OPERATOR_HEADER]: TEST_OPERATOR_TOKEN.slice(0, 32) }, body);
      expect([prefix.code, prefix.msg]).toEqual([401, OPERATOR_MSG.wrong]);
      const relayed = await raw(m.h.base, route.method, route.path, { [OPERATOR_HEADER]: TEST_OPERATOR_TOKEN, 'X-Forwarded-For': '203.0.113.9' }, body);
      expect([relayed.code, relayed.msg]).toEqual([403, OPERATOR_MSG.remote]);
      const good = await raw(m.h.base, route.method, route.path, { [OPERATOR_HEADER]: TEST_OPERATOR_TOKEN }, body);
      expect(good.code === 401 || good.code === 403, `${good.code} ${good.msg}`).toBe(false);
    });
  }

  it('the issue repro: without the token a user can neither lift their own withdrawal lock nor credit themselves', async () => {
    const changed = await call(m.h, '/user/modify-password', { token: user.token, body: { oldPassword: 'secret12', password: 'secret34', confirmPassword: 'secret34' } });
    expect(changed.code, changed.msg).toBe(200);
    const lockBefore = (await call<UserInfo>(m.h, '/user/info', { token: user.token })).data.withdrawLockUntil;
    expect(lockBefore).toBeGreaterThan(m.h.clock.now());
    // Let the route tests' own deposit confirm first.
    m.h.clock.advance(3_600_000);
    await m.jobs();
    const before = await m.balance(user.token, 'fund', 'USDT');

    const ff = await call(m.h, MONEY_PATHS.devFastForward.replace(/^\/api/, ''), { body: { email: EMAIL, hours: 48 }, operator: false, token: user.token });
    expect([ff.code, ff.msg]).toEqual([401, OPERATOR_MSG.missing]);
    const dep = await call(m.h, MONEY_PATHS.devDeposit.replace(/^\/api/, ''), { body: { email: EMAIL, coin: 'USDT', network: 'TRC20', amount: '1000' }, operator: false, token: user.token });
    expect([dep.code, dep.msg]).toEqual([401, OPERATOR_MSG.missing]);
    m.h.clock.advance(3_600_000);
    await m.jobs();

    expect((await call<UserInfo>(m.h, '/user/info', { token: user.token })).data.withdrawLockUntil).toBe(lockBefore);
    expect(await m.balance(user.token, 'fund', 'USDT')).toBe(before);
    const w = await call(m.h, MONEY_PATHS.withdraw.replace(/^\/api/, ''), { token: user.token, body: { coin: 'USDT', network: 'TRC20', address: TRON, amount: '100', code: '000000' } });
    expect(w.code).toBe(403);
    expect(w.msg).not.toBe(WALLET_MSG.codeInvalid);
  });

  it('the mail outbox: loopback reads it without a token; a relayed request is refused', async () => {
    const local = await raw(m.h.base, 'get', `/api/dev/outbox?email=${encodeURIComponent(EMAIL)}`, {});
    expect(local.code).toBe(200);
    expect((local.data as unknown[]).length).toBeGreaterThan(0);
    const relayed = await raw(m.h.base, 'get', '/api/dev/outbox', { 'X-Forwarded-For': '203.0.113.9' });
    expect([relayed.code, relayed.msg, relayed.data]).toEqual([403, OPERATOR_MSG.remote, null]);
  });

  const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  it.skipIf(external === undefined)('a client on a non-loopback address is refused outright, token or not (outbox included)', async () => {
    const port = new URL(m.h.base).port;
    const remoteBase = `http://${external}:${port}`;
    const withToken = await raw(remoteBase, 'post', '/api/dev/money/deposit', { [OPERATOR_HEADER]: TEST_OPERATOR_TOKEN }, bodyOf('/api/dev/money/deposit', EMAIL));
    expect([withToken.code, withToken.msg]).toEqual([403, OPERATOR_MSG.remote]);
    const outbox = await raw(remoteBase, 'get', '/api/dev/outbox', {});
    expect([outbox.code, outbox.msg]).toEqual([403, OPERATOR_MSG.remote]);
    // Ordinary routes answer that client as usual.
    expect((await raw(remoteBase, 'get', '/api/health', {})).code).toBe(200);
  });
});

describe('OPERATOR_REMOTE=1', () => {
  let r: MoneyHarness;
  beforeAll(async () => {
    r = await startMoney({ config: { operatorRemote: true } });
    await r.user('op-remote@example.com');
  });
  afterAll(async () => r.close());

  it('a relayed (non-loopback) operator is served with the token and still refused without it', async () => {
    const xff = { 'X-Forwarded-For': '203.0.113.9' };
    const body = { email: 'op-remote@example.com', coin: 'USDT', network: 'TRC20', amount: '5' };
    const none = await raw(r.h.base, 'post', '/api/dev/money/deposit', xff, body);
    expect([none.code, none.msg]).toEqual([401, OPERATOR_MSG.missing]);
    const ok = await raw(r.h.base, 'post', '/api/dev/money/deposit', { ...xff, [OPERATOR_HEADER]: TEST_OPERATOR_TOKEN }, body);
    expect(ok.code, ok.msg).toBe(200);
    // The outbox from afar needs the token too.
    expect((await raw(r.h.base, 'get', '/api/dev/outbox', xff)).code).toBe(401);
    expect((await raw(r.h.base, 'get', '/api/dev/outbox', { ...xff, [OPERATOR_HEADER]: TEST_OPERATOR_TOKEN })).code).toBe(200);
  });
});

describe('a server without an operator token', () => {
  let r: MoneyHarness;
  beforeAll(async () => {
    r = await startMoney({ config: { operatorToken: null } });
  });
  afterAll(async () => r.close());

  it('serves no operator route, whatever token is sent', async () => {
    const res = await raw(r.h.base, 'post', '/api/dev/money/fast-forward', { [OPERATOR_HEADER]: TEST_OPERATOR_TOKEN }, { email: 'x@example.com', hours: 1 });
    expect([res.code, res.msg]).toEqual([401, OPERATOR_MSG.notConfigured]);
  });
});

describe('the operator credential', () => {
  it('OPERATOR_TOKEN shorter than 32 characters refuses to start; 32 or more is taken as is', () => {
    expect(() => loadConfig({ OPERATOR_TOKEN: 'x'.repeat(31) })).toThrow('OPERATOR_TOKEN must be at least 32 characters');
    expect(loadConfig({ OPERATOR_TOKEN: 'y'.repeat(32) }).operatorToken).toBe('y'.repeat(32));
    expect(loadConfig({}).operatorToken).toBeNull();
    expect(loadConfig({}).operatorRemote).toBe(false);
    expect(loadConfig({ OPERATOR_REMOTE: '1' }).operatorRemote).toBe(true);
  });

  it('DATA_DIR/operator.token: created once with mode 0600, then read back; a loose mode is narrowed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rf-operator-'));
    try {
      const first = loadOrCreateOperatorToken(dir);
      expect(first.created).toBe(true);
      expect(first.token).toMatch(/^[0-9a-f]{64}$/);
      const file = join(dir, OPERATOR_TOKEN_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.token);
      const again = loadOrCreateOperatorToken(dir);
      expect(again).toEqual({ token: first.token, created: false, file });
      chmodSync(file, 0o644);
      loadOrCreateOperatorToken(dir);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      // What the operator commands send: OPERATOR_TOKEN first, else the file.
      expect(operatorHeadersFor({ operatorToken: null, dataDir: dir })).toEqual({ [OPERATOR_HEADER]: first.token });
      expect(operatorHeadersFor({ operatorToken: 'z'.repeat(40), dataDir: dir })).toEqual({ [OPERATOR_HEADER]: 'z'.repeat(40) });
      expect(operatorHeadersFor({ operatorToken: null, dataDir: join(dir, 'none') })).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compares whole tokens of any length', () => {
    expect(operatorTokenMatches('a'.repeat(64), 'a'.repeat(64))).toBe(true);
    expect(operatorTokenMatches('a'.repeat(63), 'a'.repeat(64))).toBe(false);
    expect(operatorTokenMatches(`${'a'.repeat(64)}b`, 'a'.repeat(64))).toBe(false);
    expect(operatorTokenMatches('', 'a'.repeat(64))).toBe(false);
  });
});
