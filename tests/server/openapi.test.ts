import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/connection.ts';
import { createFeatures } from '../../server/features.ts';
import { createPlatform } from '../../server/platform.ts';
import { relaxedLimits, T0, testEngineMode } from './harness.ts';
import { openTestDb } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * The API is described once (src/protocol/api.ts → OpenAPI). The server is built as server.ts
 * builds it (platform + every feature, development endpoints on); every route it registers must
 * be in the document it serves at /api/docs/openapi.json, that document must list nothing the
 * server does not serve, and docs/openapi.json must be the same document (run `npm run openapi`).
 */
let app: FastifyInstance;
let db: Db;
let testDb: TestDb;
const registered = new Set<string>();
let base = '';
let dataDir = '';

beforeAll(async () => {
  testDb = await openTestDb();
  db = testDb.db;
  const clock = { now: () => T0 };
  // A DATA_DIR of its own: the memory engine (TEST_ENGINE=memory) keeps its journal there.
  dataDir = mkdtempSync(join(tmpdir(), 'rf-openapi-'));
  const config = { ...loadConfig({}), dataDir, logLevel: 'silent' as const, serveStatic: false, exposeOutbox: true };
  const platform = createPlatform({ db, clock });
  app = buildApp({ db, clock, config, limits: relaxedLimits(), plugins: [...platform.plugins, ...createFeatures({ db, clock, bus: platform.bus, source: platform.source, periodicMs: 0, engineMode: testEngineMode() })] });
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) {
      if (m === 'HEAD') continue;
      // Fastify also registers '/prefix/' for a plugin's '/' route: one path.
      registered.add(`${m.toLowerCase()} ${r.url.length > 1 ? r.url.replace(/\/$/, '') : r.url}`);
    }
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await testDb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Doc {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

describe('OpenAPI document', () => {
  it('lists exactly the registered routes', async () => {
    const res = await fetch(`${base}/api/docs/openapi.json`);
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p.replace(/\{([A-Za-z]+)\}/g, ':$1')}`)));
    expect(registered.size).toBeGreaterThan(50);
    expect([...registered].filter((r) => !documented.has(r)).sort()).toEqual([]);
    expect([...documented].filter((r) => !registered.has(r)).sort()).toEqual([]);
  });

  it('docs/openapi.json is the served document (npm run openapi)', async () => {
    const served = (await (await fetch(`${base}/api/docs/openapi.json`)).json()) as Doc;
    expect(JSON.parse(readFileSync('docs/openapi.json', 'utf8'))).toEqual(served);
    const page = await fetch(`${base}/api/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('/api/money/withdraw');
  });

  it('is not served when the development endpoints are off', async () => {
    const prod = buildApp({ db, clock: { now: () => T0 }, config: { ...loadConfig({}), logLevel: 'silent', serveStatic: false, exposeOutbox: false } });
    const r = await prod.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(JSON.parse(r.body)).toMatchObject({ code: 404 });
    await prod.close();
  });
});
