import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../server/http/security.ts';
import { call, startServer } from './harness.ts';
import type { Harness } from './harness.ts';

const INDEX = '<!doctype html><html><body><div id="root">spa-index</div></body></html>';

describe('server: envelope, errors, headers, static site', () => {
  let h: Harness;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'rf-dist-'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("app")');
    h = await startServer({ config: { serveStatic: true, distDir: dist } });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('GET /api/health answers the envelope', async () => {
    const r = await call<{ status: string; time: number }>(h, '/health');
    expect(r.res.status).toBe(200);
    expect(r.code).toBe(200);
    expect(r.data).toEqual({ status: 'ok', time: h.clock.now() });
  });

  it('sends the security headers on API, static, fallback and error responses', async () => {
    for (const path of ['/api/health', '/api/nope', '/', '/my/dashboard', '/assets/app.js', '/assets/missing.js']) {
      const res = await fetch(h.base + path);
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(k), `${k} on ${path}`).toBe(v);
      await res.arrayBuffer();
    }
  });

  it('unknown /api routes give code 404 with HTTP 200, for GET and POST', async () => {
    const g = await call(h, '/does/not/exist');
    expect([g.res.status, g.code, g.msg, g.data]).toEqual([200, 404, 'Not found', null]);
    const p = await call(h, '/user/nothing', { body: {} });
    expect([p.res.status, p.code]).toEqual([200, 404]);
  });

  it('malformed JSON → 400 Malformed request body; empty JSON body too', async () => {
    const bad = await call(h, '/user/authType', { body: '{"email": ' });
    expect([bad.code, bad.msg]).toEqual([400, 'Malformed request body']);
    const empty = await call(h, '/user/authType', { body: '' });
    expect([empty.code, empty.msg]).toEqual([400, 'Malformed request body']);
  });

  it('a body over 1 MB → 413 Request body too large', async () => {
    const big = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) });
    const r = await call(h, '/user/authType', { body: big });
    expect([r.res.status, r.code, r.msg]).toEqual([200, 413, 'Request body too large']);
  });

  it('an unsupported content type → 400', async () => {
    const r = await call(h, '/user/authType', { body: '<x/>', contentType: 'application/xml' });
    expect([r.code, r.msg]).toEqual([400, 'Unsupported content type']);
  });

  it('a missing body is a validation error, not a crash', async () => {
    const res = await fetch(`${h.base}/api/user/authType`, { method: 'POST' });
    const env = (await res.json()) as { code: number; msg: string };
    expect(env.code).toBe(400);
  });

  it('serves index.html at / and for history-mode paths; real files as themselves', async () => {
    for (const path of ['/', '/my/dashboard', '/mFutures/BTCUSDT', '/help-detail/15?x=1', '/login']) {
      const res = await fetch(h.base + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/text\/html/);
      expect(await res.text(), path).toContain('spa-index');
    }
    const js = await fetch(`${h.base}/assets/app.js`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(await js.text()).toContain('console.log');
  });

  it('does not fall back for missing assets, non-GET methods or /api paths', async () => {
    const missing = await fetch(`${h.base}/assets/missing.js`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const post = await fetch(`${h.base}/my/dashboard`, { method: 'POST' });
    expect(post.status).toBe(404);
    await post.arrayBuffer();
    const api = await call(h, '/my/dashboard');
    expect(api.code).toBe(404);
  });
});

describe('server: unexpected errors and extra plugins', () => {
  let h: Harness;
  beforeAll(async () => {
    const boom: FastifyPluginAsync = async (app) => {
      app.get('/api/__boom', async () => {
        throw new Error('secret internals');
      });
      app.get('/api/__plugin', async () => ({ code: 200, msg: 'from plugin', data: app.deps.clock.now() }));
    };
    h = await startServer({ plugins: [boom] });
  });
  afterAll(async () => h.close());

  it('maps a thrown Error to code 500 without the message or a stack trace', async () => {
    const res = await fetch(`${h.base}/api/__boom`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ code: 500, msg: 'Internal server error', data: null });
    expect(text).not.toContain('secret');
    expect(text).not.toContain('at ');
  });

  it('registers extra plugins, which see app.deps', async () => {
    const r = await call<number>(h, '/__plugin');
    expect([r.code, r.msg, r.data]).toEqual([200, 'from plugin', h.clock.now()]);
  });
});
