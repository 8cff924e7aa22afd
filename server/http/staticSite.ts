import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Vite's content-hashed output: a new build gets new names, so a copy never goes stale. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** index.html (and every history-mode path): always revalidated, so a deploy shows at once. */
export const NO_CACHE = 'no-cache';
/** Unhashed files from public/ (favicon.svg): a short cache. */
export const SHORT_CACHE = 'public, max-age=3600';

/** The Cache-Control of a file under `distDir` (its `.br` / `.gz` sibling counts as the file). */
export function cacheControlFor(distDir: string, filePath: string): string {
  const rel = relative(distDir, filePath.replace(/\.(?:br|gz)$/, '')).split(sep).join('/');
  if (rel.endsWith('.html')) return NO_CACHE;
  if (rel.startsWith('assets/')) return IMMUTABLE_CACHE;
  return SHORT_CACHE;
}

/**
 * Serves the built front end from `distDir` and returns the history-mode fallback used by the
 * not-found handler: a non-/api GET for a path without a file extension gets index.html,
 * so /my/dashboard or /mFutures/BTCUSDT load the app. Missing assets (/x.js) stay 404.
 *
 * Compression is done once at build time (scripts/precompress.ts writes `.br` and `.gz` beside
 * each file): `preCompressed` sends the sibling the client accepts, with Content-Encoding and
 * `Vary: Accept-Encoding`, or the plain file. Hashed /assets/* are cached for a year, HTML not.
 */
export function installStaticSite(app: FastifyInstance, distDir: string, enabled: boolean): (req: FastifyRequest, reply: FastifyReply) => Promise<boolean> {
  const hasIndex = enabled && existsSync(join(distDir, 'index.html'));
  if (hasIndex) {
    void app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: 'index.html',
      preCompressed: true,
      // our own Cache-Control per file (below), instead of send's `public, max-age=0`
      cacheControl: false,
      setHeaders(reply, path) {
        void reply.header('cache-control', cacheControlFor(distDir, path));
      },
    });
  }
  return async (req, reply) => {
    if (!hasIndex) return false;
    const path = req.url.split('?')[0] ?? '/';
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (last.includes('.')) return false;
    await reply.header('cache-control', NO_CACHE).sendFile('index.html');
    return true;
  };
}
