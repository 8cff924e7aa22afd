import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { z } from 'zod';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code, fail } from '../../src/protocol/envelope.ts';
import { MSG } from '../../src/protocol/user.ts';
import { ENGINE_MSG, journalUnavailableMsg } from '../../src/protocol/engineStatus.ts';
import { HELP_LANGS } from '../../src/protocol/help.ts';
import type { HelpLang } from '../../src/protocol/help.ts';

/** Envelope messages of the server itself (the SPEC §5 ones live in src/protocol/user.ts MSG). */
export const SERVER_MSG = {
  malformedBody: 'Malformed request body',
  bodyTooLarge: 'Request body too large',
  unsupportedType: 'Unsupported content type',
  badRequest: 'Bad request',
  notFound: 'Not found',
  internal: 'Internal server error',
  tooManyRequests: 'Too many requests, please try again later',
  loginAgain: 'Please log in again',
  mailFailed: 'The email could not be sent, please try again later',
  multipartNoBoundary: 'Malformed multipart body: the Content-Type has no boundary',
  multipartMalformed: 'Malformed multipart body: it is truncated or not valid multipart/form-data',
  urlTooLong: 'Request URL too long: the query string and headers must stay under 16 KB',
  requestTimeout: 'Request timed out before it was complete',
} as const;

/**
 * An expected failure raised inside a handler: the error handler turns it into the envelope
 * `{code, msg, data: null}`. Thrown (not returned) so helpers like `requireUser` can stop a
 * request from any depth; it carries no stack into the response.
 */
export class Rejection extends Error {
  constructor(
    readonly code: number,
    msg: string,
  ) {
    super(msg);
    this.name = 'Rejection';
  }
}

export function reject(code: number, msg: string): never {
  throw new Rejection(code, msg);
}

/** Parses a body or query with a protocol schema; a ZodError becomes code 400 with the first issue's message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  return schema.parse(input ?? {});
}

const MALFORMED = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY', 'FST_INVALID_MULTIPART_CONTENT_TYPE', 'FST_PROTO_VIOLATION']);

/** Maps any error to `[code, msg]`; true in the third slot means "unexpected: log it". */
export function classify(err: unknown): [number, string, boolean] {
  if (err instanceof Rejection) return [err.code, err.message, false];
  if (err instanceof z.ZodError) return [Code.badRequest, err.issues[0]?.message ?? SERVER_MSG.badRequest, false];
  const e = err as Partial<FastifyError> & { name?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return [Code.tooLarge, MSG.avatarTooLarge, false];
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) return [Code.tooLarge, SERVER_MSG.bodyTooLarge, false];
  if ((e.code !== undefined && MALFORMED.has(e.code)) || (e.name === 'SyntaxError' && e.statusCode === 400)) {
    return [Code.badRequest, SERVER_MSG.malformedBody, false];
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || e.statusCode === 415) return [Code.badRequest, SERVER_MSG.unsupportedType, false];
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return [Code.badRequest, SERVER_MSG.badRequest, false];
  return [Code.serverError, SERVER_MSG.internal, true];
}

/** A valid Web-Lang header, else English. */
function langOf(header: string | string[] | undefined): HelpLang {
  const h = Array.isArray(header) ? header[0] : header;
  return h && (HELP_LANGS as readonly string[]).includes(h) ? (h as HelpLang) : 'en';
}

function isApi(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/**
 * The single error handler and the /api not-found handler. Under /api every answer is HTTP 200
 * with the envelope (SPEC §8: the code lives in the body); elsewhere the HTTP status follows the code.
 * `fallback` serves the SPA for non-/api GETs (history mode).
 */
export function installErrorHandling(
  app: FastifyInstance,
  fallback: (req: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
): void {
  app.setErrorHandler((err, req, reply) => {
    const [code, classified, unexpected] = classify(err);
    if (unexpected) req.log.error({ err }, 'unexpected error');
    // The engine's journal cannot make commands durable (issue 28): 503 in the request's language.
    const msg = code === Code.serviceUnavailable && classified === ENGINE_MSG.journalUnavailable ? journalUnavailableMsg(langOf(req.headers['web-lang'])) : classified;
    void reply.status(isApi(req.url) ? 200 : code).type('application/json; charset=utf-8').send(fail(code, msg));
  });
  app.setNotFoundHandler(async (req, reply) => {
    if (!isApi(req.url) && (req.method === 'GET' || req.method === 'HEAD') && (await fallback(req, reply))) return reply;
    return reply.status(isApi(req.url) ? 200 : 404).send(fail(Code.notFound, SERVER_MSG.notFound));
  });
}

/** Whether the start of a raw request (`err.rawPacket` of a client error) targets /api. */
function rawTargetsApi(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw)) return false;
  return /^[A-Z]+ \/api(?:[/?# ]|$)/.test(raw.subarray(0, 64).toString('latin1'));
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before any route runs (a query
 * string or headers over `http.maxHeaderSize`, 16 KB by default; a malformed request line; a client
 * timeout) get the `{code,msg,data}` envelope with a clear message instead of Fastify's bare 431 /
 * 400 / 408. Under /api the HTTP status is 200 like every API answer; elsewhere it is the parser's.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status: number;
  let msg: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') [status, msg] = [431, SERVER_MSG.urlTooLong];
  else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') [status, msg] = [408, SERVER_MSG.requestTimeout];
  else [status, msg] = [400, SERVER_MSG.badRequest];
  this.log.debug({ code: err.code }, 'client error');
  if (socket.writable) {
    const api = rawTargetsApi(err.rawPacket);
    const body = JSON.stringify(fail(Code.badRequest, msg));
    const head = api ? '200 OK' : `${status} ${STATUS_CODES[status] ?? ''}`;
    socket.write(
      `HTTP/1.1 ${head}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
