import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_MSG } from '../../src/protocol/user.ts';
import { parseTrustProxy } from '../../server/config.ts';
import { call, createRateLimits, startServer } from './harness.ts';
import type { Harness } from './harness.ts';

/**
 * Behind a load balancer the per-IP limits must count the client's address from X-Forwarded-For,
 * but only when TRUST_PROXY is set: otherwise any client could name a new IP per request and never
 * hit a limit. Real server over real HTTP; the login limit is 10 per minute per IP.
 */
let n = 0;
/** authType for a new unknown email each time (so only the per-IP limit can refuse): 400 = counted and answered, 429 = limited. */
async function tryLogin(h: Harness, forwardedFor: string): Promise<number> {
  n += 1;
  const r = await call(h, '/user/authType', { body: { email: `nobody${n}@example.com`, password: 'secret12' }, headers: { 'X-Forwarded-For': forwardedFor } });
  if (r.code === 429) expect(r.msg).toBe(USER_MSG.tooManyRequests);
  return r.code;
}

describe('TRUST_PROXY unset: X-Forwarded-For is ignored', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ limits: createRateLimits(), config: { trustProxy: parseTrustProxy(undefined) } });
  });
  afterAll(async () => h.close());

  it('a forged header per request does not escape the per-IP login limit', async () => {
    for (let i = 0; i < 10; i++) expect(await tryLogin(h, `203.0.113.${i + 1}`), `call ${i}`).toBe(400);
    expect(await tryLogin(h, '203.0.113.99')).toBe(429);
  });
});

describe('TRUST_PROXY=1 (one load balancer): the address it appended is the client', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ limits: createRateLimits(), config: { trustProxy: parseTrustProxy('1') } });
  });
  afterAll(async () => h.close());

  it('each forwarded client has its own budget, and one client is limited whatever it puts in front', async () => {
    // Client A: 10 allowed, the 11th refused.
    for (let i = 0; i < 10; i++) expect(await tryLogin(h, '198.51.100.7'), `A call ${i}`).toBe(400);
    expect(await tryLogin(h, '198.51.100.7')).toBe(429);
    // Client B (another address appended by the proxy) is not affected by A's limit.
    expect(await tryLogin(h, '198.51.100.8')).toBe(400);
    // A forging an entry of its own: the proxy appends A's real address last, and that is what counts.
    expect(await tryLogin(h, '10.9.9.9, 198.51.100.7')).toBe(429);
  });
});

describe('parseTrustProxy', () => {
  it('reads off, hop counts, everything and address lists; refuses garbage', () => {
    for (const off of [undefined, '', '0', 'false', 'off', 'no']) expect(parseTrustProxy(off)).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => parseTrustProxy('lb.example.com')).toThrow(/TRUST_PROXY/);
  });
});
