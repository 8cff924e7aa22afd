import { request } from 'node:http';
import { expect } from 'vitest';
import { dialectOf } from '../../server/db/connection.ts';
import type { Db } from '../../server/db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { parseMinor } from '../../server/db/money.ts';
import WebSocket from 'ws';
import type { Envelope } from '../../src/protocol/envelope.ts';

/**
 * Clients of a cluster of real processes (server/cli/cluster.ts): HTTP and sockets from a chosen
 * loopback source address, so each test's rate-limit counters (per IP) are its own.
 */

export interface Client {
  /** Source address, e.g. 127.0.0.2 (any 127.x.y.z reaches 127.0.0.1 on Linux). */
  ip: string;
}

export function http<T = unknown>(c: Client, base: string, path: string, o: { body?: unknown; form?: Record<string, string>; token?: string; method?: string } = {}): Promise<Envelope<T>> {
  const url = new URL(`/api${path}`, base);
  let payload: string | undefined;
  const headers: Record<string, string> = { Client: 'web' };
  if (o.form) {
    payload = new URLSearchParams(o.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (o.body !== undefined) {
    payload = JSON.stringify(o.body);
    headers['Content-Type'] = 'application/json';
  }
  if (o.token) headers.Authorization = o.token;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: o.method ?? (payload === undefined ? 'GET' : 'POST'), headers, localAddress: c.ip },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString()) as Envelope<T>);
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

async function code(c: Client, base: string, email: string, type: 'register' | 'login'): Promise<string> {
  const r = await http(c, base, '/user/sendMailCode', { body: { email, type } });
  if (r.code !== 200) throw new Error(`sendMailCode ${type} ${email}: ${r.code} ${r.msg}`);
  const mails = await http<{ code: string }[]>(c, base, `/dev/outbox?email=${encodeURIComponent(email)}&limit=1`);
  const m = mails.data[0];
  if (!m) throw new Error(`no mail to ${email}`);
  return m.code;
}

/** Registers and logs in through `base` (one gateway): the token. */
export async function signUp(c: Client, base: string, email: string, password = 'secret12'): Promise<{ token: string; userId: number }> {
  const rc = await code(c, base, email, 'register');
  const r = await http(c, base, '/user/register', { body: { email, password, confirmPassword: password, code: rc, agree: true } });
  if (r.code !== 200) throw new Error(`register ${email}: ${r.code} ${r.msg}`);
  const lc = await code(c, base, email, 'login');
  const l = await http<{ token: string }>(c, base, '/user/login', { form: { email, password, code: lc } });
  if (l.code !== 200) throw new Error(`login ${email}: ${l.code} ${l.msg}`);
  const info = await http<{ id: number }>(c, base, '/user/info', { token: l.data.token });
  return { token: l.data.token, userId: info.data.id };
}

export interface Frame {
  type: string;
  [k: string]: unknown;
}

/** A socket that records every frame and can wait for one. */
export class Sock {
  readonly frames: Frame[] = [];
  readonly ws: WebSocket;
  closed: { code: number } | null = null;
  private waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  readonly opened: Promise<void>;
  private readonly closedP: Promise<{ code: number }>;

  constructor(c: Client, url: string) {
    this.ws = new WebSocket(url, { localAddress: c.ip });
    this.opened = new Promise((res, rej) => {
      this.ws.once('open', () => res());
      this.ws.once('error', rej);
    });
    this.closedP = new Promise((res) => {
      this.ws.on('close', (code) => {
        this.closed = { code };
        res({ code });
      });
    });
    this.ws.on('error', () => {});
    this.ws.on('message', (d: WebSocket.RawData) => {
      const f = JSON.parse(d.toString()) as Frame;
      this.frames.push(f);
      for (const w of [...this.waiters]) {
        if (w.pred(f)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(f);
        }
      }
    });
  }

  send(msg: unknown): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** The first frame (already received or coming) that matches, within `ms`. */
  next(pred: (f: Frame) => boolean, ms = 10_000): Promise<Frame> {
    const seen = this.frames.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching frame within ${ms} ms; got ${this.frames.length}: ${JSON.stringify(this.frames.slice(-3))}`)), ms);
      this.waiters.push({ pred, resolve: (f) => (clearTimeout(t), resolve(f)) });
    });
  }

  whenClosed(ms = 10_000): Promise<{ code: number }> {
    return Promise.race([this.closedP, new Promise<never>((_r, rej) => setTimeout(() => rej(new Error('socket did not close')), ms))]);
  }

  close(): void {
    this.ws.close();
  }
}

/** A user socket on `base`, authenticated with `token`. */
export async function userSocket(c: Client, base: string, token: string): Promise<Sock> {
  const s = new Sock(c, `${base.replace('http', 'ws')}/api/ws/user`);
  await s.opened;
  s.send({ action: 'auth', token });
  await s.next((f) => f.type === 'authed');
  return s;
}

export async function marketSocket(c: Client, base: string, topics: string[]): Promise<Sock> {
  const s = new Sock(c, `${base.replace('http', 'ws')}/api/ws/market`);
  await s.opened;
  s.send({ action: 'subscribe', topics });
  return s;
}

type Level = [number, number];
export interface DepthFrame extends Frame {
  symbol: string;
  snapshot: boolean;
  seq?: number;
  firstSeq?: number;
  lastSeq?: number;
  prevSeq?: number;
  bids: Level[];
  asks: Level[];
}

/** A client-side book built from a depth snapshot and the diffs after it; states by seq. */
export class ClientBook {
  bids = new Map<number, number>();
  asks = new Map<number, number>();
  seq = -1;
  readonly bySeq = new Map<number, string>();
  gaps = 0;

  onFrame(f: Frame): void {
    if (f.type !== 'depth') return;
    const d = f as DepthFrame;
    if (d.snapshot) {
      this.bids = new Map(d.bids);
      this.asks = new Map(d.asks);
      this.seq = d.seq ?? -1;
    } else {
      if (this.seq < 0 || (d.lastSeq ?? 0) <= this.seq) return;
      if (d.prevSeq !== this.seq) this.gaps++;
      for (const [p, q] of d.bids) {
        if (q === 0) this.bids.delete(p);
        else this.bids.set(p, q);
      }
      for (const [p, q] of d.asks) {
        if (q === 0) this.asks.delete(p);
        else this.asks.set(p, q);
      }
      this.seq = d.lastSeq ?? this.seq;
    }
    this.bySeq.set(this.seq, this.top(20));
  }

  top(n: number): string {
    const bids = [...this.bids].sort((a, b) => b[0] - a[0]).slice(0, n);
    const asks = [...this.asks].sort((a, b) => a[0] - b[0]).slice(0, n);
    return JSON.stringify({ bids, asks });
  }
}

/**
 * Every balance is its ledger sum (and every ledger key has its balance row); only the system account
 * may be negative; per asset all balances, and all ledger entries, sum to 0.
 *
 * Read in ONE snapshot (a read transaction; REPEATABLE READ on PostgreSQL): the engine keeps posting
 * while this reads (a restarted engine's new market settles fees, triggers and liquidations), and the
 * invariant holds at every commit, not between two reads of different moments. Reading balances one
 * user at a time once summed a fee's user leg without its system leg (a PostgreSQL CI run: "USDT:
 * expected 33945696n to be 0n" with every balance equal to its own ledger sum).
 */
export async function expectLedgerBalanced(db: Db): Promise<void> {
  const tx = db.transaction();
  const { balances, entries } = await (dialectOf(db) === 'postgres' ? tx.setIsolationLevel('repeatable read') : tx).execute(async (trx) => ({
    balances: await trx.selectFrom('balances').select(['user_id', 'wallet', 'asset', 'amount']).execute(),
    entries: await trx.selectFrom('ledger_entries').select(['user_id', 'wallet', 'asset', 'amount']).execute(),
  }));
  const key = (r: { user_id: number; wallet: string; asset: string }): string => `${r.user_id}/${r.wallet}/${r.asset}`;
  const ledger = new Map<string, bigint>();
  const ledgerPerAsset = new Map<string, bigint>();
  for (const e of entries) {
    const amount = parseMinor(e.amount);
    ledger.set(key(e), (ledger.get(key(e)) ?? 0n) + amount);
    ledgerPerAsset.set(e.asset, (ledgerPerAsset.get(e.asset) ?? 0n) + amount);
  }
  const perAsset = new Map<string, bigint>();
  const held = new Set<string>();
  for (const b of balances) {
    const amount = parseMinor(b.amount);
    held.add(key(b));
    expect(ledger.get(key(b)) ?? 0n, `ledger sum of ${key(b)}`).toBe(amount);
    if (b.user_id !== SYSTEM_ACCOUNT_ID) expect(amount >= 0n, `balance of ${key(b)}`).toBe(true);
    perAsset.set(b.asset, (perAsset.get(b.asset) ?? 0n) + amount);
  }
  expect([...ledger.keys()].filter((k) => !held.has(k)), 'ledger keys without a balance row').toEqual([]);
  for (const [asset, sum] of perAsset) expect(sum, asset).toBe(0n);
  for (const [asset, sum] of ledgerPerAsset) expect(sum, `ledger ${asset}`).toBe(0n);
}
