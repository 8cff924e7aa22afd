import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DepthFrame, Level, MarketFrame } from '../../src/protocol/market.ts';
import { initialOrderBook, reduceOrderBook, sideLevels, type OrderBookState } from '../../src/streams/orderBook.ts';
import { Exchange, RefBook, levelArb, levelsArb } from './orderBookModel.ts';

const SYMBOL = 'BTCUSDT';
// Bids and asks overlap on [12, 15] so crossing updates happen.
const bidsArb = levelsArb(2, 30);
const asksArb = levelsArb(24, 60);

type Op =
  | { kind: 'next' | 'skip'; bids: Level[]; asks: Level[]; span: number; jump: number }
  | { kind: 'dup'; back: number }
  | { kind: 'swap'; a: [Level[], Level[]]; b: [Level[], Level[]] }
  | { kind: 'snapshot'; late: number }
  | { kind: 'otherSymbol' };

const updateArb = fc.record({ bids: bidsArb, asks: asksArb, span: fc.integer({ min: 0, max: 3 }), jump: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5 })) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: updateArb.map((u) => ({ kind: 'next' as const, ...u })) },
  { weight: 1, arbitrary: updateArb.map((u) => ({ kind: 'skip' as const, ...u })) },
  { weight: 1, arbitrary: fc.nat({ max: 5 }).map((back) => ({ kind: 'dup' as const, back })) },
  { weight: 1, arbitrary: fc.record({ a: fc.tuple(bidsArb, asksArb), b: fc.tuple(bidsArb, asksArb) }).map((s) => ({ kind: 'swap' as const, ...s })) },
  { weight: 2, arbitrary: fc.nat({ max: 2 }).map((late) => ({ kind: 'snapshot' as const, late })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'otherSymbol' as const }) },
);

/** Turns ops into the frames a client would receive from an imperfect connection. */
function deliver(ops: Op[], ex: Exchange): MarketFrame[] {
  const out: MarketFrame[] = [];
  const sent: DepthFrame[] = [];
  const push = (f: DepthFrame): void => {
    out.push(f);
    sent.push(f);
  };
  for (const op of ops) {
    switch (op.kind) {
      case 'next':
        push(ex.next(op.bids, op.asks, op.span, op.jump));
        break;
      case 'skip':
        ex.next(op.bids, op.asks, op.span, op.jump);
        break;
      case 'dup': {
        const f = sent[sent.length - 1 - op.back];
        if (f) out.push(f);
        break;
      }
      case 'swap': {
        const a = ex.next(op.a[0], op.a[1], 0, 0);
        const b = ex.next(op.b[0], op.b[1], 0, 0);
        push(b);
        push(a);
        break;
      }
      case 'snapshot': {
        const snap = ex.snapshot();
        for (let i = 0; i < op.late; i++) push(ex.next([], [], 0, 0));
        push(snap);
        break;
      }
      case 'otherSymbol':
        out.push({ type: 'depth', symbol: 'ETHUSDT', snapshot: true, seq: 1, bids: [[1, 1]], asks: [[0.5, 1]], ts: 0 });
        break;
    }
  }
  return out;
}

function applyRef(ref: RefBook, f: MarketFrame): void {
  if (f.type !== 'depth') return;
  if (f.snapshot) ref.snapshot(f);
  else ref.diff(f);
}

function assertInvariants(s: OrderBookState): void {
  const bids = sideLevels(s.bids);
  const asks = sideLevels(s.asks);
  for (let i = 1; i < bids.length; i++) expect((bids[i - 1] as Level)[0]).toBeGreaterThan((bids[i] as Level)[0]);
  for (let i = 1; i < asks.length; i++) expect((asks[i - 1] as Level)[0]).toBeLessThan((asks[i] as Level)[0]);
  for (const [, q] of [...bids, ...asks]) expect(q).toBeGreaterThan(0);
  if (bids[0] && asks[0]) expect(bids[0][0]).toBeLessThan(asks[0][0]);
}

function expectSameAsRef(s: OrderBookState, ref: RefBook): void {
  expect({ status: s.status, seq: s.seq, awaiting: s.awaitingFirstDiff, reason: s.reason?.code ?? null, buffered: s.buffer.length }).toEqual({
    status: ref.status,
    seq: ref.seq,
    awaiting: ref.awaiting,
    reason: ref.reasonCode,
    buffered: ref.buffer.length,
  });
  expect(sideLevels(s.bids)).toEqual(ref.bidLevels());
  expect(sideLevels(s.asks)).toEqual(ref.askLevels());
}

describe('order book reducer (properties)', () => {
  it('matches the Map-based reference model after every frame, under gaps, duplicates and reorders', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.array(opArb, { maxLength: 60 }), (start, ops) => {
        const frames = deliver(ops, new Exchange(SYMBOL, start));
        const ref = new RefBook(SYMBOL);
        let s = initialOrderBook(SYMBOL);
        let sawGap = false;
        for (const f of frames) {
          s = reduceOrderBook(s, f);
          applyRef(ref, f);
          expectSameAsRef(s, ref);
          assertInvariants(s);
          if (f.type === 'depth' && f.snapshot && f.symbol === SYMBOL) sawGap = false;
          if (s.status === 'resync') sawGap = true;
          if (sawGap) expect(s.status).toBe('resync'); // never live after a gap until a new snapshot
        }
      }),
      { numRuns: 300 },
    );
  });

  it('recovers: after any history, a snapshot plus in-order diffs equals the exchange book', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), fc.array(updateArb, { maxLength: 20 }), fc.boolean(), (chaos, after, bufferedFirst) => {
        const ex = new Exchange(SYMBOL, 1000);
        let s = initialOrderBook(SYMBOL);
        for (const f of deliver(chaos, ex)) s = reduceOrderBook(s, f);
        const snap = ex.snapshot();
        const diffs = after.map((u) => ex.next(u.bids, u.asks, u.span, u.jump));
        if (bufferedFirst) {
          // Diffs that arrive before the snapshot are buffered only while not live: force that case
          // by starting from a fresh book that saw nothing yet.
          s = initialOrderBook(SYMBOL);
          for (const d of diffs) s = reduceOrderBook(s, d);
          s = reduceOrderBook(s, snap);
        } else {
          s = reduceOrderBook(s, snap);
          for (const d of diffs) s = reduceOrderBook(s, d);
        }
        expect(s.status).toBe('live');
        expect(s.seq).toBe(ex.lastSeq);
        expect(sideLevels(s.bids)).toEqual(ex.book.bidLevels());
        expect(sideLevels(s.asks)).toEqual(ex.book.askLevels());
        assertInvariants(s);
      }),
      { numRuns: 300 },
    );
  });

  it('never mutates the state it is given (old states keep their levels)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const frames = deliver(ops, new Exchange(SYMBOL, 0));
        const states: OrderBookState[] = [initialOrderBook(SYMBOL)];
        const copies: [Level[], Level[]][] = [[[], []]];
        for (const f of frames) {
          const s = reduceOrderBook(states[states.length - 1] as OrderBookState, f);
          states.push(s);
          copies.push([sideLevels(s.bids), sideLevels(s.asks)]);
        }
        states.forEach((s, i) => expect([sideLevels(s.bids), sideLevels(s.asks)]).toEqual(copies[i]));
      }),
      { numRuns: 100 },
    );
  });

  it('is deterministic: the same frames give equal states', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const frames = deliver(ops, new Exchange(SYMBOL, 7));
        const run = (): OrderBookState => frames.reduce(reduceOrderBook, initialOrderBook(SYMBOL));
        const a = run();
        const b = run();
        expect([a.status, a.seq, sideLevels(a.bids), sideLevels(a.asks)]).toEqual([b.status, b.seq, sideLevels(b.bids), sideLevels(b.asks)]);
      }),
      { numRuns: 50 },
    );
  });
});

// ---- model-based run (fc.commands) ----
interface Real {
  state: OrderBookState;
}
interface Model {
  ref: RefBook;
  ex: Exchange;
  last: DepthFrame | null;
}

class Deliver implements fc.Command<Model, Real> {
  constructor(readonly bids: Level[], readonly asks: Level[], readonly jump: number) {}
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    const f = m.ex.next(this.bids, this.asks, 1, this.jump);
    step(m, r, f);
  }
  toString = (): string => `deliver(${JSON.stringify([this.bids, this.asks, this.jump])})`;
}
class Lose implements fc.Command<Model, Real> {
  constructor(readonly bids: Level[]) {}
  check = (): boolean => true;
  run(m: Model): void {
    m.ex.next(this.bids, [], 0, 0);
  }
  toString = (): string => `lose(${JSON.stringify(this.bids)})`;
}
class Repeat implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.last !== null;
  run(m: Model, r: Real): void {
    if (m.last) step(m, r, m.last);
  }
  toString = (): string => 'repeat';
}
class Snapshot implements fc.Command<Model, Real> {
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    step(m, r, m.ex.snapshot());
  }
  toString = (): string => 'snapshot';
}

function step(m: Model, r: Real, f: DepthFrame): void {
  r.state = reduceOrderBook(r.state, f);
  applyRef(m.ref, f);
  m.last = f;
  expectSameAsRef(r.state, m.ref);
  assertInvariants(r.state);
}

describe('order book reducer (model-based, fc.commands)', () => {
  it('behaves like the reference model for any command sequence', () => {
    const commands = [
      fc.tuple(bidsArb, asksArb, fc.nat({ max: 3 })).map(([b, a, j]) => new Deliver(b, a, j)),
      bidsArb.map((b) => new Lose(b)),
      fc.constant(new Repeat()),
      fc.constant(new Snapshot()),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 80 }), (cmds) => {
        const setup = () => ({ model: { ref: new RefBook(SYMBOL), ex: new Exchange(SYMBOL, 500), last: null }, real: { state: initialOrderBook(SYMBOL) } });
        fc.modelRun(setup, cmds);
      }),
      { numRuns: 200 },
    );
  });
  it('large books (bulk snapshots, long diffs) match the reference and keep old states intact', () => {
    // Wide price ranges and long diffs: sides of hundreds of levels, many snapshots (fresh stores).
    const wideLevels = (lo: number, hi: number): fc.Arbitrary<Level[]> => fc.array(levelArb(lo, hi), { maxLength: 40 });
    const stepArb = fc.oneof(
      { weight: 12, arbitrary: fc.tuple(wideLevels(2, 400), wideLevels(300, 700)).map(([bids, asks]) => ({ snapshot: false as const, bids, asks })) },
      { weight: 1, arbitrary: fc.constant({ snapshot: true as const, bids: [] as Level[], asks: [] as Level[] }) },
    );
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), (steps) => {
        const ex = new Exchange(SYMBOL, 0);
        let s = reduceOrderBook(initialOrderBook(SYMBOL), ex.snapshot());
        const states: OrderBookState[] = [s];
        const copies: [Level[], Level[]][] = [[sideLevels(s.bids), sideLevels(s.asks)]];
        for (const step of steps) {
          s = reduceOrderBook(s, step.snapshot ? ex.snapshot() : ex.next(step.bids, step.asks, 0, 0));
          expect(s.status).toBe('live');
          expect(sideLevels(s.bids)).toEqual(ex.book.bidLevels());
          expect(sideLevels(s.asks)).toEqual(ex.book.askLevels());
          assertInvariants(s);
          states.push(s);
          copies.push([sideLevels(s.bids), sideLevels(s.asks)]);
        }
        states.forEach((old, i) => expect([sideLevels(old.bids), sideLevels(old.asks)]).toEqual(copies[i]));
        // The flat `data` view (read by the replay driver) lists the same levels as [price, qty, seq].
        const flat = s.asks.data;
        expect(flat.length).toBe(s.asks.length * 3);
        expect(sideLevels(s.asks).flat()).toEqual(flat.filter((_, i) => i % 3 !== 2));
      }),
      { numRuns: 150 },
    );
  });
});

// ---- persistence through the undo log (src/streams/bookStore.ts) ----
describe('order book persistence (shared store, undo log)', () => {
  const diffAfter = (s: OrderBookState, bids: Level[], asks: Level[]): DepthFrame => ({
    type: 'depth', symbol: SYMBOL, snapshot: false, firstSeq: s.seq + 1, lastSeq: s.seq + 1, prevSeq: s.seq, bids, asks, ts: s.seq + 1,
  });
  const view = (s: OrderBookState) => [s.status, s.seq, sideLevels(s.bids), sideLevels(s.asks)];

  it('reducing an older state (a branch) equals a straight run, and never changes the other states', () => {
    const sideArb = fc.array(levelArb(2, 120), { maxLength: 8 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(sideArb, sideArb), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(sideArb, sideArb), { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.array(fc.tuple(sideArb, sideArb), { maxLength: 10 }),
        (trunk, branch, at, more) => {
          const ex = new Exchange(SYMBOL, 0);
          const states: OrderBookState[] = [reduceOrderBook(initialOrderBook(SYMBOL), ex.snapshot())];
          const frames: DepthFrame[] = [];
          for (const [b, a] of trunk) {
            const f = diffAfter(states[states.length - 1] as OrderBookState, b, a);
            frames.push(f);
            states.push(reduceOrderBook(states[states.length - 1] as OrderBookState, f));
          }
          const copies = states.map(view);
          const i = at % states.length;
          // the branch: from state i, other frames
          let br = states[i] as OrderBookState;
          const branchFrames: DepthFrame[] = [];
          for (const [b, a] of branch) {
            const f = diffAfter(br, b, a);
            branchFrames.push(f);
            br = reduceOrderBook(br, f);
          }
          const straight = [...frames.slice(0, i), ...branchFrames].reduce(reduceOrderBook, states[0] as OrderBookState);
          expect(view(br)).toEqual(view(straight));
          states.forEach((s, k) => expect(view(s)).toEqual(copies[k]));
          // the trunk's newest state still moves on correctly
          let head = states[states.length - 1] as OrderBookState;
          const trunkMore: DepthFrame[] = [];
          for (const [b, a] of more) {
            const f = diffAfter(head, b, a);
            trunkMore.push(f);
            head = reduceOrderBook(head, f);
          }
          expect(view(head)).toEqual(view([...frames, ...trunkMore].reduce(reduceOrderBook, states[0] as OrderBookState)));
          expect(view(br)).toEqual(view(straight));
          states.forEach((s, k) => expect(view(s)).toEqual(copies[k]));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a state older than the undo horizon fails loudly when read; recent states read fine', () => {
    const ex = new Exchange(SYMBOL, 0);
    const first = reduceOrderBook(initialOrderBook(SYMBOL), ex.snapshot());
    let s = reduceOrderBook(first, diffAfter(first, [[100, 1]], [[101, 1]]));
    const early = s;
    const earlyView = view(early);
    expect(sideLevels(early.bids)).toEqual([[100, 1]]);
    for (let i = 0; i < 40_000; i++) s = reduceOrderBook(s, diffAfter(s, [[100, 1 + (i % 7)]], []));
    expect(sideLevels(s.bids)).toEqual([[100, 1 + (39_999 % 7)]]);
    expect(() => sideLevels(early.bids)).toThrow(/older than the undo horizon/);
    expect(earlyView[2]).toEqual([[100, 1]]);
    // the asks side never changed after `early`, so it still reads from the store
    expect(sideLevels(early.asks)).toEqual([[101, 1]]);
  });
});
