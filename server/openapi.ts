import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { API_ROUTES } from '../src/protocol/api.ts';
import { envelopeSchema } from '../src/protocol/envelope.ts';

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the one route catalogue
 * (src/protocol/api.ts) and its zod schemas with zod-openapi 5 (runs on Node 20; zod 4).
 * Served at /api/docs (a small page) and /api/docs/openapi.json in development (EXPOSE_OUTBOX),
 * written to docs/openapi.json by `npm run openapi`.
 */
export function openApiDocument(): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of API_ROUTES) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
    const data = route.response ? route.response.meta({ description: `data on success: ${route.data ?? ''}` }) : z.unknown().meta({ description: `data: ${route.data}` });
    const envelope = route.data || route.response ? envelopeSchema.extend({ data }) : envelopeSchema;
    const op: ZodOpenApiOperationObject = {
      tags: [route.tag],
      summary: route.summary,
      description: [
        route.auth ? 'Needs the Authorization header (the login token).' : '',
        route.dev ? 'Development / operator only: served when EXPOSE_OUTBOX is on.' : '',
        route.websocket ? 'WebSocket upgrade; frames in docs/PROTOCOL.md.' : '',
      ].filter(Boolean).join(' ') || undefined,
      ...(route.auth ? { security: [{ token: [] }] } : {}),
      requestParams: {
        ...(route.query ? { query: route.query as z.ZodObject } : {}),
        ...(params.length ? { path: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
      },
      ...(route.body
        ? {
            requestBody: {
              content: {
                [route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : route.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json']: { schema: route.body },
              },
            },
          }
        : {}),
      responses: {
        '200': {
          description: route.websocket ? 'Switching protocols (101) on upgrade; an envelope otherwise' : 'Always HTTP 200 under /api: the envelope carries the code (SPEC §8)',
          content: { 'application/json': { schema: envelope } },
        },
      },
    };
    paths[path] = { ...paths[path], [route.method]: op };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'RiskFree trading platform API', version: '1.0.0', description: 'Every answer under /api is HTTP 200 with the envelope {code, msg, data}. Conventions: docs/API.md.' },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    paths,
  });
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>RiskFree API</title>
<style>body{font:14px system-ui;margin:2rem;max-width:70rem}code{background:#eee;padding:0 .2em}td{padding:.2em .6em;border-bottom:1px solid #ddd;vertical-align:top}</style>
<h1>RiskFree API</h1><p>OpenAPI 3.1: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a> (also docs/openapi.json). Conventions: docs/API.md.</p>
<table>ROWS</table>`;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** GET /api/docs (a plain page listing the routes) and /api/docs/openapi.json; register only in development. */
export const apiDocsRoutes: FastifyPluginAsync = async (app) => {
  if (!app.deps.config.exposeOutbox) return;
  const doc = openApiDocument();
  const rows = API_ROUTES.map((r) => `<tr><td><code>${r.method.toUpperCase()}</code></td><td><code>${escapeHtml(r.path)}</code></td><td>${escapeHtml(r.summary)}${r.auth ? ' 🔒' : ''}</td><td>${escapeHtml(r.data ?? '')}</td></tr>`).join('');
  const page = PAGE.replace('ROWS', rows);
  app.get('/docs/openapi.json', async () => doc);
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(page));
};
