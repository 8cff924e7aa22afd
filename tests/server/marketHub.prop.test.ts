import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { MarketHub } from '../../server/market/hub.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { createSimulator } from '../../server/market/simulator.ts';
import { topicOf } from '../../server/market/source.ts';

/**
 * Model-based test of the topic hub: a socket's subscriptions follow a plain Set model through
 * any sequence of subscribe / unsubscribe / time steps, and it only ever receives frames of
 * topics in the model (plus replies), with every depth diff chained to its snapshot.
 * The socket is an in-memory stand-in (the hub is what is tested); the source is the real simulator.
 */

const START = Date.UTC(2026, 6, 1, 12, 0, 0);
const FEW = INSTRUMENTS.filter((i) => ['BTCUSDT', 'ETHUSDT'].includes(i.info.symbol));
const TOPICS = ['btcusdt@depth', 'btcusdt@trade', 'btcusdt@ticker', 'btcusdt@kline_1m', 'ethusdt@depth', 'ethusdt@trade', 'all@ticker'];
const MAX = 5;

class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  sent: ({ type: string } & Record<string, unknown>)[] = [];
  closedWith: number | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { type: string } & Record<string, unknown>);
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
  message(obj: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(obj)), false);
  }
}

type Cmd = { kind: 'sub' | 'unsub'; topics: string[] } | { kind: 'advance'; ms: number };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ kind: fc.constant('sub' as const), topics: fc.uniqueArray(fc.constantFrom(...TOPICS), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('unsub' as const), topics: fc.uniqueArray(fc.constantFrom(...TOPICS), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 50, max: 2500 }) }),
);

describe('market hub (model-based property)', () => {
  it('subscriptions follow the model, frames only for subscribed topics, depth chained from the snapshot', () => {
    const sim = createSimulator({ seed: 99, startMs: START, instruments: FEW });
    let now = START;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 1, maxLength: 30 }), (cmds) => {
        const hub = new MarketHub({ source: sim, clock: { now: () => now }, maxTopics: MAX });
        const ws = new FakeSocket();
        hub.attach(ws as unknown as WebSocket);
        const model = new Set<string>();
        const depthSeq = new Map<string, number>();
        try {
          for (const c of cmds) {
            ws.sent = [];
            if (c.kind === 'advance') {
              now += c.ms;
              sim.advanceTo(now);
            } else {
              ws.message({ action: c.kind === 'sub' ? 'subscribe' : 'unsubscribe', topics: c.topics });
              const union = new Set([...model, ...c.topics]);
              if (c.kind === 'sub' && union.size > MAX) {
                expect(ws.sent).toEqual([expect.objectContaining({ type: 'error', code: 429 })]);
                continue;
              }
              for (const t of c.topics) {
                if (c.kind === 'sub') model.add(t);
                else model.delete(t);
              }
              expect(ws.sent[0]).toEqual({ type: 'subscribed', topics: expect.arrayContaining([...model]) });
              expect((ws.sent[0]?.topics as string[]).length).toBe(model.size);
            }
            for (const f of ws.sent) {
              if (f.type === 'subscribed' || f.type === 'error') continue;
              if (f.type === 'depth' && f.snapshot === true) {
                depthSeq.set(f.symbol as string, f.seq as number);
                continue;
              }
              if (f.type === 'depth') {
                expect(f.prevSeq).toBe(depthSeq.get(f.symbol as string));
                depthSeq.set(f.symbol as string, f.lastSeq as number);
              }
              const topic = topicOf(f as Parameters<typeof topicOf>[0]);
              expect(topic !== null && model.has(topic)).toBe(true);
            }
          }
          expect(hub.stats().connections).toBe(1);
          expect(ws.closedWith).toBeNull();
        } finally {
          hub.close();
        }
        expect(ws.closedWith).toBe(1001);
        expect(hub.stats()).toEqual({ connections: 0, topics: 0 });
      }),
      { numRuns: 60 },
    );
  });
});

/** Reads back unmasked text frames (RFC 6455) written to a raw sink; wireFrame.prop.test.ts checks the framing against ws's own parser. */
function unframe(bytes: Buffer): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    const b1 = bytes[at + 1] as number;
    let len = b1 & 0x7f;
    let head = 2;
    if (len === 126) {
      len = bytes.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      len = Number(bytes.readBigUInt64BE(at + 2));
      head = 10;
    }
    expect(bytes[at]).toBe(0x81);
    out.push(bytes.subarray(at + head, at + head + len).toString('utf8'));
    at += head + len;
  }
  return out;
}

/** A socket whose TCP side takes raw bytes (as a real `ws` socket): the hub's batched path. Records everything on the wire in order. */
class RawFakeSocket extends FakeSocket {
  readonly extensions = '';
  readonly wire: string[] = [];
  readonly _socket = { write: (b: Buffer): boolean => (this.wire.push(...unframe(b)), true) };
  override send(data: string): void {
    super.send(data);
    this.wire.push(data);
  }
}

describe('market hub: batched raw writes (differential)', () => {
  it('a socket written pre-framed batches gets exactly the frames, in the same order, as one written frame by frame', async () => {
    const sim = createSimulator({ seed: 5, startMs: START, instruments: FEW });
    let now = START;
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 25 }), async (cmds) => {
        const hub = new MarketHub({ source: sim, clock: { now: () => now }, maxTopics: MAX });
        const plain = new FakeSocket();
        const raw = new RawFakeSocket();
        hub.attach(plain as unknown as WebSocket);
        hub.attach(raw as unknown as WebSocket);
        const plainWire: string[] = [];
        const origSend = plain.send.bind(plain);
        plain.send = (d: string) => (origSend(d), plainWire.push(d), undefined);
        try {
          for (const c of cmds) {
            if (c.kind === 'advance') {
              now += c.ms;
              sim.advanceTo(now);
              // Some bursts flush at the end of the tick (microtask), others run into the next command first.
              if (c.ms % 2 === 0) await Promise.resolve();
            } else {
              for (const s of [plain, raw]) s.message({ action: c.kind === 'sub' ? 'subscribe' : 'unsubscribe', topics: c.topics });
            }
          }
          hub.flush();
          expect(raw.wire).toEqual(plainWire);
          expect(hub.stats().connections).toBe(2);
        } finally {
          hub.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
