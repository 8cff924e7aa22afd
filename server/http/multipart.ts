import type { FastifyRequest } from 'fastify';
import { Code } from '../../src/protocol/envelope.ts';
import { Rejection, reject, SERVER_MSG } from './errors.ts';

/** The `boundary` parameter of a multipart Content-Type, or '' when it is missing or empty. */
export function multipartBoundary(contentType: string | undefined): string {
  const m = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return (m?.[1] ?? m?.[2] ?? '').trim();
}

/**
 * True for an error of the multipart parser itself (busboy: "Unexpected end of multipart data",
 * "Multipart: Boundary not found", "Malformed part header"...): plain Errors with no Fastify code.
 * Size limits (FST_REQ_FILE_TOO_LARGE and friends) and our own Rejections are not parser errors.
 */
export function isMultipartParseError(err: unknown): boolean {
  if (err instanceof Rejection || !(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; statusCode?: unknown };
  if (typeof e.code === 'string' && e.code.startsWith('FST_')) return false;
  return /multipart|boundary|part header|unexpected end/i.test(e.message);
}

/**
 * Runs `read` (which iterates `req.parts()` when the request is multipart), answering malformed
 * bodies with a 400 envelope instead of a 500: a missing or empty boundary before anything is read,
 * and a truncated or garbled body when the parser gives up. Other errors pass through unchanged.
 */
export async function readMultipartSafely<T>(req: FastifyRequest, read: () => Promise<T>): Promise<T> {
  if (req.isMultipart() && multipartBoundary(req.headers['content-type']) === '') reject(Code.badRequest, SERVER_MSG.multipartNoBoundary);
  try {
    return await read();
  } catch (err) {
    if (isMultipartParseError(err)) reject(Code.badRequest, SERVER_MSG.multipartMalformed);
    throw err;
  }
}
