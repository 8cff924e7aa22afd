import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { fail, ok, type Envelope } from '../../src/protocol/envelope.ts';
import { depthQuery, klinesQuery, tradesQuery } from '../../src/protocol/market.ts';
import type { ServerClock } from '../http/deps.ts';
import { requireOperator } from '../http/operator.ts';
import { MarketHub } from './hub.ts';
import type { MarketSource } from './source.ts';

export interface MarketPluginOptions {
  source: MarketSource;
  /** Only `now()` is used; the server's clock (`ServerClock`) fits. */
  clock: ServerClock;
  /** How often the source is advanced to `clock.now()` and idle sockets are swept; 0 disables the timer (tests drive `source.advanceTo` themselves). Default 100. */
  tickMs?: number;
  /** Default IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** Default 4 MB. */
  maxBufferedBytes?: number;
  /** Default MAX_TOPICS_PER_CONNECTION. */
  maxTopics?: number;
  /** Registers POST /api/dev/market/steer when the source can be steered (config.marketSteering). */
  steering?: boolean;
  /** Called with the hub once it exists (stats in benches and tests). */
  onHub?: (hub: MarketHub) => void;
}

function queryError(error: z.ZodError): Envelope<null> {
  const issue = error.issues[0];
  const where = issue?.path.join('.') ?? '';
  return fail(400, issue ? `Invalid query${where ? ` ${where}` : ''}: ${issue.message}` : 'Invalid query');
}

const UNKNOWN_SYMBOL = 'Unknown symbol';

const steerBody = z.object({ symbol: z.string().min(1).max(20), price: z.string().max(32).nullable() }).strict();

/**
 * Market data: REST under /api/market and the socket GET /api/ws/market (docs/PROTOCOL.md).
 *
 * Register it without a prefix, after `@fastify/websocket` (registered at the root by the app);
 * if no `websocketServer` decorator is visible it registers @fastify/websocket itself, which is
 * only right when this is the only socket plugin (two registrations would both handle upgrades).
 * The plugin owns a real timer that advances the source; it is stopped, and every socket closed,
 * on app close. Every route answers HTTP 200 with the `{code,msg,data}` envelope.
 */
export const marketPlugin: FastifyPluginAsync<MarketPluginOptions> = async (app: FastifyInstance, opts) => {
  const { source, clock } = opts;
  if (!app.hasDecorator('websocketServer')) await app.register(websocket);
  const hub = new MarketHub({
    source,
    clock,
    ...(opts.idleTimeoutMs !== undefined ? { idleTimeoutMs: opts.idleTimeoutMs } : {}),
    ...(opts.maxBufferedBytes !== undefined ? { maxBufferedBytes: opts.maxBufferedBytes } : {}),
    ...(opts.maxTopics !== undefined ? { maxTopics: opts.maxTopics } : {}),
  });
  opts.onHub?.(hub);

  const tickMs = opts.tickMs ?? 100;
  let timer: ReturnType<typeof setInterval> | null = null;
  if (tickMs > 0) {
    const lag = clock.now() - source.now();
    // A source created with a different clock would replay every step in between inside one tick.
    if (lag > 60_000) app.log.warn({ lagMs: lag }, 'market source starts far behind the clock; create it with clock.now()');
    timer = setInterval(() => {
      try {
        source.advanceTo(clock.now());
        hub.sweep();
      } catch (err) {
        app.log.error({ err }, 'market tick failed');
      }
    }, tickMs);
    timer.unref();
  }
  app.addHook('onClose', async () => {
    if (timer !== null) clearInterval(timer);
    hub.close();
  });

  app.get('/api/market/symbols', async () => ok(source.symbols()));
  app.get('/api/market/tickers', async () => ok(source.tickers()));

  app.get('/api/market/depth', async (req) => {
    const q = depthQuery.safeParse(req.query);
    if (!q.success) return queryError(q.error);
    const snap = source.snapshot(q.data.symbol, q.data.limit);
    return snap === undefined ? fail(404, UNKNOWN_SYMBOL) : ok(snap);
  });

  app.get('/api/market/trades', async (req) => {
    const q = tradesQuery.safeParse(req.query);
    if (!q.success) return queryError(q.error);
    if (source.symbol(q.data.symbol) === undefined) return fail(404, UNKNOWN_SYMBOL);
    return ok(source.recentTrades(q.data.symbol, q.data.limit));
  });

  app.get('/api/market/klines', async (req) => {
    const q = klinesQuery.safeParse(req.query);
    if (!q.success) return queryError(q.error);
    const { symbol, interval, from, to, limit } = q.data;
    if (from !== undefined && to !== undefined && from > to) return fail(400, 'Invalid query: from is after to');
    if (source.symbol(symbol) === undefined) return fail(404, UNKNOWN_SYMBOL);
    return ok(source.fetchKlines ? await source.fetchKlines(symbol, interval, from, to, limit) : source.klines(symbol, interval, from, to, limit));
  });

  const steer = source.steer?.bind(source);
  if (opts.steering === true && steer !== undefined) {
    // Tests only (MARKET_STEERING, refused in production), for the operator only: {symbol, price} holds the price, {symbol, price: null} releases it.
    app.post('/api/dev/market/steer', { onRequest: requireOperator }, async (req) => {
      const body = steerBody.safeParse(req.body);
      if (!body.success) return fail(400, 'Expected {symbol, price} with price a decimal string or null');
      if (source.symbol(body.data.symbol) === undefined) return fail(404, UNKNOWN_SYMBOL);
      try {
        steer(body.data.symbol, body.data.price);
      } catch (err) {
        return fail(400, (err as Error).message);
      }
      return ok({ symbol: body.data.symbol.toUpperCase(), price: body.data.price });
    });
  }

  app.get('/api/ws/market', { websocket: true }, (socket) => {
    hub.attach(socket);
  });
};
