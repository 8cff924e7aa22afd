import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { dbFile, openDb, type Db } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrations.ts';
import { seedDemo } from '../server/db/seed.ts';
import { createPlatform } from '../server/platform.ts';
import { VirtualClock } from '../src/ports/virtualClock.ts';
import { createBrowserHttp, createBrowserSocket, createMemoryStorage } from '../src/ports/index.ts';
import type { Ports, SocketFactory } from '../src/ports/types.ts';

/**
 * Shared by scripts/record-session.ts and scripts/record-market.ts: the REAL server in-process
 * (temp SQLite database, migrated and seeded, simulator market source, both sockets) listening on
 * a free port, and Node ports that talk to it over real HTTP and WebSockets.
 *
 * Time: the app runs on a {@link FollowClock}, a VirtualClock that follows wall time (pumped every
 * 5 ms) and can also {@link FollowClock.skip} ahead, so a 10 s reconnect delay costs no real
 * waiting. The log's `t` is this clock, which is all replay needs.
 */

export class FollowClock extends VirtualClock {
  private skipped = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  constructor() {
    super(Date.now());
  }
  start(): void {
    this.timer = setInterval(() => this.pump(), 5);
  }
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
  pump(): void {
    const target = Date.now() + this.skipped;
    if (target > this.now()) this.advance(target - this.now());
  }
  /** Jumps `ms` ahead of wall time (fires the timers on the way). */
  skip(ms: number): void {
    this.skipped += ms;
    this.pump();
  }
}

export interface LiveServer {
  app: FastifyInstance;
  db: Db;
  base: string;
  close(): Promise<void>;
}

/** The real server in-process, as `npm run serve` builds it, on 127.0.0.1 and a free port. */
export async function startLiveServer(): Promise<LiveServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rf-record-'));
  const config = { ...loadConfig({}), dataDir, logLevel: 'silent' as const, serveStatic: false, rateLimitScale: 100 };
  const db = openDb({ filename: dbFile(dataDir) });
  await migrateToLatest(db);
  const clock = { now: () => Date.now() };
  await seedDemo(db, clock.now());
  const platform = createPlatform({ db, clock });
  const app = buildApp({ db, clock, config, plugins: platform.plugins });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    db,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Drops frames the filter rejects before anything (the app, the recorder) sees them: a lossy network. */
export function lossySocket(inner: SocketFactory, drop: (data: string) => boolean): SocketFactory {
  return {
    open(url, handlers) {
      return inner.open(url, { ...handlers, onFrame: (d) => (drop(d) ? undefined : handlers.onFrame(d)) });
    },
  };
}

/** Node ports against `base`: ofetch Http, `ws` sockets, memory storage, a counter Random. */
export function nodePorts(base: string, clock: FollowClock, lang = 'en'): Ports & { storage: ReturnType<typeof createMemoryStorage> } {
  const storage = createMemoryStorage({ lang });
  let n = 0;
  return {
    clock,
    storage,
    http: createBrowserHttp({ baseURL: `${base}/api`, getLang: () => storage.get('lang') ?? 'en', getToken: () => storage.get('token') }),
    socket: createBrowserSocket({ base: () => base, WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket, getLang: () => storage.get('lang') ?? 'en' }),
    random: { id: () => `rec${(++n).toString(16).padStart(8, '0')}` },
  };
}

/** Real-time wait (the network and the server work meanwhile). */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits (real time) until `cond()` holds; throws with `what` after `ms`. */
export async function waitFor(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Server-side: close every socket connection abruptly (the client sees code 1006). */
export function dropAllSockets(app: FastifyInstance): number {
  const wss = (app as unknown as { websocketServer?: { clients: Set<{ terminate(): void }> } }).websocketServer;
  let n = 0;
  for (const c of wss?.clients ?? []) {
    c.terminate();
    n += 1;
  }
  return n;
}
