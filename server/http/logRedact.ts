import type { FastifyRequest } from 'fastify';
import { secretClassOf } from '../../src/protocol/secrets.ts';

/**
 * `/api/x?email=a@b.c&code=123456` → `/api/x?email=a@b.c&code=[redacted]`: every query parameter
 * whose name is on the secret key list (src/protocol/secrets.ts) loses its value. A URL that does
 * not parse is cut at the `?` rather than logged as is.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  try {
    const params = new URLSearchParams(url.slice(q + 1));
    const out: string[] = [];
    for (const [k, v] of params) out.push(`${encodeURIComponent(k)}=${secretClassOf(k) ? '[redacted]' : encodeURIComponent(v)}`);
    return `${url.slice(0, q)}?${out.join('&')}`;
  } catch {
    return `${url.slice(0, q)}?[unparsed]`;
  }
}

/**
 * The server logger's serializers and redact paths (buildApp): request lines carry the redacted URL
 * and never a header; an `Authorization`, cookie, password or secret that ends up in a logged object
 * at the usual places is censored by pino.
 */
export const LOGGER_REDACTION = {
  serializers: {
    req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
  },
  redact: {
    paths: [
      'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
      '*.password', '*.oldPassword', '*.confirmPassword', '*.googleSecret', '*.secret', '*.docNumber', '*.docNo',
    ],
    censor: '[redacted]',
  },
};
