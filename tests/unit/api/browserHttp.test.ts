import { describe, expect, it } from 'vitest';
import { createBrowserHttp, resolveSocketUrl } from '../../../src/ports/browser.ts';

/** A real fetch-compatible function that answers from a table and records what it was asked. */
function fakeFetch(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const seen: { url: string; headers: Headers; body: unknown; method: string }[] = [];
  const fn: typeof fetch = async (input, init = {}) => {
    const req = new Request(input as string, init);
    seen.push({ url: req.url, headers: req.headers, body: init.body, method: req.method });
    return respond(req.url, init);
  };
  return { fn, seen };
}

const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } });

describe('browser Http adapter (ofetch)', () => {
  const make = (f: typeof fetch, token: string | null = 'tok') =>
    createBrowserHttp({ getLang: () => 'jp', getToken: () => token, fetch: f, baseURL: 'http://h/api' });

  it('sends base /api, Web-Lang, Authorization and Client headers; returns the envelope', async () => {
    const f = fakeFetch(() => json({ code: 200, msg: 'ok', data: { a: 1 } }));
    const out = await make(f.fn).request({ method: 'GET', path: '/user/info', query: { page: 2 } });
    expect(out).toEqual({ kind: 'envelope', envelope: { code: 200, msg: 'ok', data: { a: 1 } } });
    const s = f.seen[0];
    expect(s?.url).toBe('http://h/api/user/info?page=2');
    expect(s?.headers.get('Web-Lang')).toBe('jp');
    expect(s?.headers.get('Authorization')).toBe('tok');
    expect(s?.headers.get('Client')).toBe('web');
  });

  it('omits Authorization without a token and sends form payloads url-encoded', async () => {
    const f = fakeFetch(() => json({ code: 200, msg: 'ok', data: null }));
    await make(f.fn, null).request({ method: 'POST', path: '/user/login', body: { email: 'a@b.c', code: '123456' }, form: true });
    expect(f.seen[0]?.headers.get('Authorization')).toBeNull();
    expect(String(f.seen[0]?.body)).toBe('email=a%40b.c&code=123456');
  });

  it('an envelope on a non-2xx status is still an envelope', async () => {
    const f = fakeFetch(() => json({ code: 401, msg: 'expired', data: null }, 401));
    expect(await make(f.fn).request({ method: 'GET', path: '/x' })).toEqual({
      kind: 'envelope',
      envelope: { code: 401, msg: 'expired', data: null },
    });
  });

  it('network failure and non-envelope bodies are network errors', async () => {
    const down = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const r1 = await make(down.fn).request({ method: 'GET', path: '/x' });
    expect(r1.kind).toBe('networkError');
    const html = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    expect(await make(html.fn).request({ method: 'GET', path: '/x' })).toEqual({ kind: 'networkError', message: 'Unexpected response (HTTP 502)' });
  });

  it('resolves socket URLs relative to the page with ws/wss', () => {
    expect(resolveSocketUrl('/api/ws/market', 'http://localhost:8199/market')).toBe('ws://localhost:8199/api/ws/market');
    expect(resolveSocketUrl('/api/ws/user', 'https://ex.com/a/b')).toBe('wss://ex.com/api/ws/user');
    // The socket's Web-Lang: the user socket answers orders in it (issue 28).
    expect(resolveSocketUrl('/api/ws/user', 'https://ex.com/a/b', 'jp')).toBe('wss://ex.com/api/ws/user?lang=jp');
    expect(resolveSocketUrl('/api/ws/user?lang=ko', 'https://ex.com/', 'jp')).toBe('wss://ex.com/api/ws/user?lang=ko');
  });
});
