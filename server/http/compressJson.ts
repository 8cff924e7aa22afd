import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** JSON answers smaller than this go out as they are: compressing them saves less than it costs. */
export const JSON_COMPRESS_MIN_BYTES = 1024;

type Encoding = 'br' | 'gzip';

/** The encoding to answer with for an Accept-Encoding header: br over gzip, honouring q=0 and `*`. */
export function pickEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const v = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(v) ? v : 0);
  }
  const accepts = (enc: Encoding): boolean => (q.get(enc) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

function addVary(reply: FastifyReply): void {
  const cur = reply.getHeader('vary');
  const value = Array.isArray(cur) ? cur.join(', ') : cur === undefined ? '' : String(cur);
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(value)) return;
  reply.header('vary', value ? `${value}, Accept-Encoding` : 'Accept-Encoding');
}

function isEligible(req: FastifyRequest, reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (req.method === 'HEAD' || !req.url.startsWith('/api/')) return false;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false; // streams (files) are not JSON answers
  if (reply.getHeader('content-encoding') !== undefined) return false;
  return /\bjson\b/i.test(String(reply.getHeader('content-type') ?? ''));
}

/**
 * Compresses /api JSON answers of {@link JSON_COMPRESS_MIN_BYTES} or more (brotli at quality 4:
 * most of quality 11's gain at a fraction of its CPU; gzip level 6 otherwise) on the libuv
 * thread pool. Static files never pass here compressed per request (they are precompressed at
 * build time); WebSocket upgrades do not go through onSend at all.
 */
export function installJsonCompression(app: FastifyInstance, minBytes = JSON_COMPRESS_MIN_BYTES): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!isEligible(req, reply, payload)) return payload;
    const size = Buffer.byteLength(payload);
    if (size < minBytes) return payload;
    addVary(reply);
    const enc = pickEncoding(req.headers['accept-encoding']);
    if (!enc) return payload;
    const body =
      enc === 'br'
        ? await brotli(payload, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: size },
          })
        : await gz(payload, { level: 6 });
    reply.header('content-encoding', enc);
    reply.removeHeader('content-length');
    return body;
  });
}
