import type { WebSocket, RawData } from 'ws';
import { clientMessageSchema, IDLE_TIMEOUT_MS, MAX_TOPICS_PER_CONNECTION, type MarketFrame } from '../../src/protocol/market.ts';
import type { ServerClock } from '../http/deps.ts';
import { topicOf, type MarketSource } from './source.ts';
import { parseTopic, type ParsedTopic } from './topics.ts';
import { rawSinkOf, textFrame, type RawSink } from './wireFrame.ts';

/** Close codes the market socket uses (docs/PROTOCOL.md). */
export const CLOSE_IDLE = 4000;
export const CLOSE_SLOW_CONSUMER = 1013;
export const CLOSE_GOING_AWAY = 1001;
/** The market started over (a new engine behind a gateway): reconnect and resubscribe. */
export const CLOSE_SERVICE_RESTART = 1012;
/** Default bound on a socket's unsent bytes before it is dropped as a slow consumer. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface HubOptions {
  source: MarketSource;
  /** Only `now()` is used; the server's clock (`ServerClock`) fits. */
  clock: ServerClock;
  idleTimeoutMs?: number;
  maxBufferedBytes?: number;
  maxTopics?: number;
  /** Levels per side in the snapshot sent on a depth subscription. */
  depthSnapshotLimit?: number;
}

interface Conn {
  ws: WebSocket;
  topics: Set<string>;
  lastSeen: number;
  /** Per symbol: seq of the snapshot this client got; diffs at or below it are not sent. */
  depthSeq: Map<string, number>;
  open: boolean;
  /** The TCP socket pre-framed bytes are written to (null: frames go through `ws.send`). */
  raw: RawSink | null;
  /** Indexes into `MarketHub.batch` of the frames this socket gets at the next flush. */
  pending: number[];
}

const OPEN = 1; // WebSocket.OPEN

/**
 * Fan-out of market frames to sockets by topic.
 *
 * Each published frame is serialised and framed (RFC 6455) once, and the same bytes go to every
 * socket subscribed to its topic. Frames published in one synchronous burst (a simulator tick, a
 * broker message) are batched: at the end of the burst (a microtask) each socket gets one write
 * with all of its frames, and sockets with the same frames share one concatenated buffer. Sockets
 * that cannot take raw bytes (an extension negotiated, test stand-ins) get `ws.send` per frame.
 * A socket whose unsent buffer exceeds `maxBufferedBytes` is closed (1013) rather than letting
 * memory grow; a socket silent for `idleTimeoutMs` is closed (4000) by `sweep()`. Bad client
 * input never closes the socket: it is answered with an `error` frame.
 */
export class MarketHub {
  private readonly source: MarketSource;
  private readonly clock: ServerClock;
  private readonly idleTimeoutMs: number;
  private readonly maxBufferedBytes: number;
  private readonly maxTopics: number;
  private readonly depthLimit: number;
  private readonly conns = new Set<Conn>();
  private readonly byTopic = new Map<string, Set<Conn>>();
  private readonly unsubscribe: () => void;
  private readonly unsubscribeReset: () => void;
  /** Frames written to sockets since start (for stats and the bench). */
  sent = 0;
  /** Framed bytes of the frames published since the last flush. */
  private batch: Buffer[] = [];
  private dirty: Conn[] = [];
  private flushQueued = false;

  constructor(opts: HubOptions) {
    this.source = opts.source;
    this.clock = opts.clock;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    this.maxBufferedBytes = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.maxTopics = opts.maxTopics ?? MAX_TOPICS_PER_CONNECTION;
    this.depthLimit = opts.depthSnapshotLimit ?? 100;
    this.unsubscribe = this.source.subscribe((f) => this.publish(f));
    // Sequence numbers of a restarted market start over: every client must take a new snapshot.
    this.unsubscribeReset = this.source.onReset?.(() => this.dropAll(CLOSE_SERVICE_RESTART, 'Market restarted')) ?? (() => {});
  }

  /** Number of open connections and of topics with at least one subscriber. */
  stats(): { connections: number; topics: number } {
    return { connections: this.conns.size, topics: this.byTopic.size };
  }

  /** Takes ownership of a freshly upgraded socket. */
  attach(ws: WebSocket): void {
    const conn: Conn = { ws, topics: new Set(), lastSeen: this.clock.now(), depthSeq: new Map(), open: true, raw: rawSinkOf(ws), pending: [] };
    this.conns.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(conn, data, isBinary));
    ws.on('close', () => this.forget(conn));
    ws.on('error', () => this.forget(conn));
  }

  /** Drops clients that have been silent longer than the idle timeout. */
  sweep(): void {
    const now = this.clock.now();
    for (const conn of this.conns) {
      if (now - conn.lastSeen > this.idleTimeoutMs) this.drop(conn, CLOSE_IDLE, 'Idle timeout');
    }
  }

  /** Stops listening to the source and closes every socket (1001). */
  close(): void {
    this.unsubscribe();
    this.unsubscribeReset();
    this.dropAll(CLOSE_GOING_AWAY, 'Server shutting down');
  }

  private dropAll(code: number, reason: string): void {
    for (const conn of [...this.conns]) this.drop(conn, code, reason);
  }

  private publish(frame: MarketFrame): void {
    const topic = topicOf(frame);
    if (topic === null) return;
    const subs = this.byTopic.get(topic);
    if (subs === undefined || subs.size === 0) return;
    const data = JSON.stringify(frame);
    const diff = frame.type === 'depth' && !frame.snapshot ? frame : null;
    let index = -1;
    for (const conn of subs) {
      // Never send a diff the client's snapshot already includes.
      if (diff !== null && diff.lastSeq <= (conn.depthSeq.get(diff.symbol) ?? -1)) continue;
      if (conn.raw === null) {
        this.write(conn, data);
        continue;
      }
      if (index < 0) index = this.batch.push(textFrame(Buffer.from(data))) - 1;
      if (conn.pending.length === 0) this.dirty.push(conn);
      conn.pending.push(index);
    }
    if (index >= 0 && !this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Writes every socket's batched frames (one write per socket) and starts a new batch. */
  flush(): void {
    this.flushQueued = false;
    const { batch, dirty } = this;
    if (dirty.length === 0) return;
    this.batch = [];
    this.dirty = [];
    const shared = new Map<string, Buffer>();
    for (const conn of dirty) this.flushConn(conn, batch, shared);
  }

  private flushConn(conn: Conn, batch: readonly Buffer[], shared?: Map<string, Buffer>): void {
    const pending = conn.pending;
    if (pending.length === 0) return;
    conn.pending = [];
    if (!this.writable(conn) || conn.raw === null) return;
    let bytes: Buffer;
    if (pending.length === 1) bytes = batch[pending[0] as number] as Buffer;
    else {
      const key = pending.join(',');
      const hit = shared?.get(key);
      bytes = hit ?? Buffer.concat(pending.map((i) => batch[i] as Buffer));
      if (hit === undefined) shared?.set(key, bytes);
    }
    conn.raw.write(bytes);
    this.sent += pending.length;
  }

  /** Open, and not over its unsent-bytes bound (else dropped as a slow consumer). */
  private writable(conn: Conn): boolean {
    if (!conn.open || conn.ws.readyState !== OPEN) return false;
    // NOTE: check before writing, so one huge backlog cannot keep growing between checks.
    if (conn.ws.bufferedAmount > this.maxBufferedBytes) {
      this.drop(conn, CLOSE_SLOW_CONSUMER, 'Slow consumer');
      return false;
    }
    return true;
  }

  private write(conn: Conn, data: string): void {
    // Frames still batched for this socket go first (order on the wire = order of publication).
    if (conn.pending.length > 0) this.flushConn(conn, this.batch);
    if (!this.writable(conn)) return;
    conn.ws.send(data);
    this.sent++;
  }

  private reply(conn: Conn, frame: MarketFrame): void {
    this.write(conn, JSON.stringify(frame));
  }

  private error(conn: Conn, code: number, msg: string): void {
    this.reply(conn, { type: 'error', code, msg });
  }

  private forget(conn: Conn): void {
    if (!conn.open) return;
    conn.open = false;
    this.conns.delete(conn);
    for (const t of conn.topics) {
      const subs = this.byTopic.get(t);
      if (subs === undefined) continue;
      subs.delete(conn);
      if (subs.size === 0) this.byTopic.delete(t);
    }
    conn.topics.clear();
  }

  private drop(conn: Conn, code: number, reason: string): void {
    this.forget(conn);
    try {
      conn.ws.close(code, reason);
    } catch {
      conn.ws.terminate();
    }
  }

  private onMessage(conn: Conn, data: RawData, isBinary: boolean): void {
    conn.lastSeen = this.clock.now();
    if (isBinary) return this.error(conn, 400, 'Binary frames are not supported');
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      return this.error(conn, 400, 'Malformed JSON');
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success) {
      const action = typeof json === 'object' && json !== null ? (json as { action?: unknown }).action : undefined;
      const known = action === 'subscribe' || action === 'unsubscribe' || action === 'ping' || action === 'auth';
      const detail = parsed.error.issues[0];
      return this.error(conn, 400, known ? `Invalid ${String(action)} message${detail ? `: ${detail.path.join('.')} ${detail.message}` : ''}` : 'Unknown action');
    }
    const msg = parsed.data;
    switch (msg.action) {
      case 'ping':
        return this.reply(conn, { type: 'pong', ts: msg.ts });
      case 'auth':
        return this.error(conn, 400, 'Unsupported action on the market socket');
      case 'subscribe':
        return this.subscribe(conn, msg.topics);
      case 'unsubscribe':
        return this.unsubscribeTopics(conn, msg.topics);
    }
  }

  private parseAll(conn: Conn, topics: readonly string[]): ParsedTopic[] | null {
    const out: ParsedTopic[] = [];
    let bad = false;
    for (const raw of topics) {
      const r = parseTopic(raw, (s) => this.source.symbol(s) !== undefined);
      if (r.ok) out.push(r.value);
      else {
        bad = true;
        this.error(conn, r.code, r.msg);
      }
    }
    return bad ? null : out;
  }

  private subscribe(conn: Conn, topics: readonly string[]): void {
    const parsed = this.parseAll(conn, topics);
    if (parsed === null) return;
    const union = new Set(conn.topics);
    for (const p of parsed) union.add(p.topic);
    if (union.size > this.maxTopics) return this.error(conn, 429, `Too many topics: at most ${this.maxTopics} per connection`);
    for (const p of parsed) {
      conn.topics.add(p.topic);
      let subs = this.byTopic.get(p.topic);
      if (subs === undefined) {
        subs = new Set();
        this.byTopic.set(p.topic, subs);
      }
      subs.add(conn);
    }
    this.reply(conn, { type: 'subscribed', topics: [...conn.topics] });
    for (const p of parsed) this.sendInitial(conn, p);
  }

  /** What a new subscriber gets at once: the depth snapshot, or the current ticker(s). */
  private sendInitial(conn: Conn, p: ParsedTopic): void {
    if (p.kind === 'depth') {
      const snap = this.source.snapshot(p.symbol, this.depthLimit);
      if (snap === undefined) return;
      conn.depthSeq.set(p.symbol, snap.seq);
      this.reply(conn, { type: 'depth', snapshot: true, ...snap });
    } else if (p.kind === 'ticker') {
      const t = this.source.ticker(p.symbol);
      if (t !== undefined) this.reply(conn, { type: 'ticker', ...t });
    } else if (p.kind === 'allTickers') {
      this.reply(conn, { type: 'tickers', items: this.source.tickers(), ts: this.source.now() });
    }
  }

  private unsubscribeTopics(conn: Conn, topics: readonly string[]): void {
    const parsed = this.parseAll(conn, topics);
    if (parsed === null) return;
    for (const p of parsed) {
      conn.topics.delete(p.topic);
      if (p.kind === 'depth') conn.depthSeq.delete(p.symbol);
      const subs = this.byTopic.get(p.topic);
      if (subs === undefined) continue;
      subs.delete(conn);
      if (subs.size === 0) this.byTopic.delete(p.topic);
    }
    this.reply(conn, { type: 'subscribed', topics: [...conn.topics] });
  }
}
