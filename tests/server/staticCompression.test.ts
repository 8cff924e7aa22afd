import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding } from '../../server/http/compressJson.ts';
import { IMMUTABLE_CACHE, NO_CACHE } from '../../server/http/staticSite.ts';
import { precompressDir } from '../../scripts/precompress.ts';
import { startServer } from './harness.ts';
import type { Harness } from './harness.ts';

/** Issue 30: build-time compressed, cached static files and compressed JSON answers, over real HTTP on 127.0.0.1. */

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that does NOT decode the body (fetch would), so the test sees the bytes on the wire. */
function get(base: string, path: string, acceptEncoding?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(r: Raw): Buffer {
  const enc = r.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(r.body);
  if (enc === 'gzip') return gunzipSync(r.body);
  if (enc === undefined) return r.body;
  throw new Error(`unexpected content-encoding ${String(enc)}`);
}

const varyHasAcceptEncoding = (r: Raw): boolean => /(^|,)\s*accept-encoding\s*(,|$)/i.test(String(r.headers.vary ?? ''));

// Text that compresses (repetitive), well over the 1 KB threshold.
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root">spa-index</div>${'<p>filler paragraph of the shell</p>'.repeat(60)}</body></html>`;
const APP_JS = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{id:${i},name:"row ${i}"}`).join(',')}];\n`;

describe('server: precompressed, cached static files and compressed JSON (issue 30)', () => {
  let h: Harness;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'rf-dist-cmp-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), APP_JS);
    writeFileSync(join(dist, 'assets', 'tiny-Zz99.js'), 'export {};\n');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await precompressDir(dist);
    h = await startServer({ config: { serveStatic: true, distDir: dist, exposeOutbox: true } });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('the build step writes .br and .gz beside files of 1 KB or more, not beside tiny ones', () => {
    for (const f of ['index.html', 'assets/index-Ab12Cd34.js']) {
      expect(existsSync(join(dist, `${f}.br`)), f).toBe(true);
      expect(existsSync(join(dist, `${f}.gz`)), f).toBe(true);
    }
    expect(existsSync(join(dist, 'assets/tiny-Zz99.js.br'))).toBe(false);
    expect(brotliDecompressSync(readFileSync(join(dist, 'index.html.br'))).toString()).toBe(INDEX);
  });

  it('hashed assets: brotli or gzip as accepted, Vary, a year immutable, and the decoded body is the file', async () => {
    const file = readFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'));
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=1.0, gzip;q=0.8', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const r = await get(h.base, '/assets/index-Ab12Cd34.js', accept);
      expect(r.status, String(accept)).toBe(200);
      expect(r.headers['content-encoding'], String(accept)).toBe(expected);
      expect(r.headers['content-type'], String(accept)).toMatch(/javascript/);
      expect(r.headers['cache-control'], String(accept)).toBe(IMMUTABLE_CACHE);
      expect(varyHasAcceptEncoding(r), String(accept)).toBe(true);
      if (expected !== undefined) expect(r.body.length).toBeLessThan(file.length);
      expect(decode(r).equals(file), String(accept)).toBe(true);
    }
  });

  it('a file with no compressed sibling goes out plain, still immutable', async () => {
    const r = await get(h.base, '/assets/tiny-Zz99.js', 'br, gzip');
    expect([r.status, r.headers['content-encoding'], r.headers['cache-control']]).toEqual([200, undefined, IMMUTABLE_CACHE]);
    expect(r.body.toString()).toBe('export {};\n');
  });

  it('index.html, at / and on history-mode paths, is compressed and never cached', async () => {
    for (const path of ['/', '/index.html', '/market', '/mFutures/BTCUSDT']) {
      for (const accept of ['br', 'gzip', undefined]) {
        const r = await get(h.base, path, accept);
        expect(r.status, `${path} ${accept}`).toBe(200);
        expect(r.headers['cache-control'], `${path} ${accept}`).toBe(NO_CACHE);
        expect(r.headers['content-type'], `${path} ${accept}`).toMatch(/text\/html/);
        expect(r.headers['content-encoding'], `${path} ${accept}`).toBe(accept);
        expect(decode(r).toString(), `${path} ${accept}`).toBe(INDEX);
      }
    }
  });

  it('unhashed public files get a short cache, not immutable', async () => {
    const r = await get(h.base, '/favicon.svg', 'br');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).not.toMatch(/immutable/);
  });

  it('JSON API answers of 1 KB or more are compressed as accepted; small ones and unaccepting clients get plain JSON', async () => {
    const plain = await get(h.base, '/api/docs/openapi.json');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(varyHasAcceptEncoding(plain)).toBe(true);
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const r = await get(h.base, '/api/docs/openapi.json', accept);
      expect(r.headers['content-encoding'], accept).toBe(expected);
      expect(varyHasAcceptEncoding(r), accept).toBe(true);
      expect(r.body.length, accept).toBeLessThan(plain.body.length / 3);
      expect(Number(r.headers['content-length'] ?? r.body.length), accept).toBe(r.body.length);
      expect(JSON.parse(decode(r).toString()), accept).toEqual(JSON.parse(plain.body.toString()));
    }
    const small = await get(h.base, '/api/health', 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(small.body.toString()) as { code: number }).code).toBe(200);
  });

  it('Accept-Encoding negotiation', () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('gzip, br')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('deflate')).toBeNull();
  });
});
