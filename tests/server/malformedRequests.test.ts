import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycPlugin } from '../../server/kyc/routes.ts';
import { SERVER_MSG } from '../../server/http/errors.ts';
import { multipartBoundary } from '../../server/http/multipart.ts';
import { call, login, register, startServer, type Harness } from './harness.ts';

/**
 * Issue 10: malformed multipart bodies (missing or empty boundary, truncated, garbled) on
 * /api/user/modify-info and /api/kyc/submit answer a 400 envelope with a clear message (they were
 * 500), and a query string over the HTTP parser's limit answers the envelope instead of a bare 431.
 * Raw HTTP over real sockets: fetch/FormData could not send these bodies.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startServer({ plugins: [async (app) => app.register(kycPlugin({ db: app.deps.db, clock: app.deps.clock }))] });
  await register(h, 'mp@example.com');
  token = await login(h, 'mp@example.com');
});
afterAll(async () => h.close());

interface RawAnswer {
  status: number;
  body: string;
}

/**
 * POSTs `body` with exactly these headers. A "truncated" body here is a complete HTTP body whose
 * multipart content stops early (no closing boundary): the parser sees the end and must say so.
 */
function post(path: string, contentType: string, body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const u = new URL(h.base);
    const headers = { 'content-type': contentType, 'content-length': Buffer.byteLength(body), authorization: token, client: 'web' };
    const req = request({ host: u.hostname, port: u.port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PART = '--xyz\r\nContent-Disposition: form-data; name="nickname"\r\n\r\nbob\r\n--xyz--\r\n';
const CASES: [string, string, string, string][] = [
  ['missing boundary', 'multipart/form-data', PART, SERVER_MSG.multipartNoBoundary],
  ['empty boundary', 'multipart/form-data; boundary=', PART, SERVER_MSG.multipartNoBoundary],
  ['empty quoted boundary', 'multipart/form-data; boundary=""', PART, SERVER_MSG.multipartNoBoundary],
  ['body ends inside a text part', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="nickname"\r\n\r\nbo', SERVER_MSG.multipartMalformed],
  [
    'body ends inside a file part',
    'multipart/form-data; boundary=xyz',
    '--xyz\r\nContent-Disposition: form-data; name="cover"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n',
    SERVER_MSG.multipartMalformed,
  ],
  ['no multipart at all', 'multipart/form-data; boundary=xyz', 'hello world', SERVER_MSG.multipartMalformed],
];

describe('malformed multipart bodies get a 400 envelope', () => {
  for (const path of ['/api/user/modify-info', '/api/kyc/submit']) {
    it.each(CASES)(`${path}: %s`, async (_name, contentType, body, msg) => {
      const r = await post(path, contentType, body);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ code: 400, msg, data: null });
    });
  }

  it('a well-formed multipart body still works (the check is not over-eager)', async () => {
    const r = await post('/api/user/modify-info', 'multipart/form-data; boundary="xyz"', PART);
    expect(JSON.parse(r.body)).toMatchObject({ code: 200, data: { nickname: 'bob' } });
  });

  it('multipartBoundary reads plain and quoted boundaries', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('multipart/form-data; boundary=')).toBe('');
    expect(multipartBoundary('multipart/form-data')).toBe('');
  });
});

/** Sends a raw GET over a socket and returns the status line and body exactly as the server wrote them. */
function rawGet(target: string): Promise<{ statusLine: string; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(h.base);
    const sock = connect(Number(u.port), u.hostname, () => sock.write(`GET ${target} HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`));
    let text = '';
    sock.on('data', (d: Buffer) => (text += d.toString('latin1')));
    sock.on('error', reject);
    sock.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ statusLine: head.split('\r\n')[0] ?? '', body });
    });
  });
}

describe('a query string over the server limit gets the envelope', () => {
  it('under /api: HTTP 200 and {code:400, msg} like every API answer', async () => {
    const r = await rawGet(`/api/health?q=${'a'.repeat(20_000)}`);
    expect(r.statusLine).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(r.body)).toEqual({ code: 400, msg: SERVER_MSG.urlTooLong, data: null });
  });

  it('outside /api: the 431 status, still with the envelope body', async () => {
    const r = await rawGet(`/market?q=${'a'.repeat(20_000)}`);
    expect(r.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(r.body)).toEqual({ code: 400, msg: SERVER_MSG.urlTooLong, data: null });
  });

  it('a long query under the limit is served normally', async () => {
    const r = await call(h, `/health?q=${'a'.repeat(8_000)}`);
    expect(r.code).toBe(200);
  });
});
