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
