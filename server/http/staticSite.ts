import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built front end from `distDir` and returns the history-mode fallback used by the
 * not-found handler: a non-/api GET for a path without a file extension gets index.html,
 * so /my/dashboard or /mFutures/BTCUSDT load the app. Missing assets (/x.js) stay 404.
 */
export function installStaticSite(app: FastifyInstance, distDir: string, enabled: boolean): (req: FastifyRequest, reply: FastifyReply) => Promise<boolean> {
  const hasIndex = enabled && existsSync(join(distDir, 'index.html'));
  if (hasIndex) {
    void app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: 'index.html',
      setHeaders(reply, path) {
        if (path.endsWith('.html')) void reply.header('cache-control', 'no-cache');
      },
    });
  }
  return async (req, reply) => {
    if (!hasIndex) return false;
    const path = req.url.split('?')[0] ?? '/';
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (last.includes('.')) return false;
    await reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  };
}
