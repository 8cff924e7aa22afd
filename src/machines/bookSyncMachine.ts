import { and, assign, fromPromise, setup } from 'xstate';
import type { DepthSnapshot } from '../protocol/market.ts';
import type { ResyncReason } from '../streams/orderBook.ts';

/**
 * The resync of one order book after a gap (docs/STREAMS.md "Order book", docs/ARCHITECTURE.md
 * "The core's streams"), owned by the core per symbol:
 *
 * ```
 * synced ─book.gap→ gapDetected ─(watched; first attempt: now, later: after SNAPSHOT_RETRY_MS)→ fetchingSnapshot
 * fetchingSnapshot ─done→ replayingBuffer ─(book live)→ synced
 *                                         └(still a gap)→ gapDetected
 * fetchingSnapshot ─error→ gapDetected           gapDetected / fetchingSnapshot ─book.live→ synced
 * ```
 *
 * `watched` (provided by the core): the market socket holds the book's depth topic. A book nobody
 * subscribes any more is not fetched for; it waits in `gapDetected` (no timer) until a socket
 * snapshot (a resubscribe) makes it live.
 *
 * The book itself is reduced outside the machine (src/streams/orderBook.ts, at full speed, one
 * reducer call per frame): the core sends this machine only the book's status CHANGES (`book.gap`
 * when it enters 'resync', `book.live` when a socket snapshot makes it live again), so a burst of
 * diffs costs no machine step. `replayingBuffer` applies the fetched snapshot through the same
 * reducer (`applySnapshot`, provided by the core), which replays the diffs buffered meanwhile; the
 * `bookLive` guard (provided) then reads the result.
 *
 * Invariants (tests/property/bookSync.prop.test.ts): a snapshot request is in flight only in
 * `fetchingSnapshot`; `attempts` is 0 in `synced`; a fetched snapshot is applied exactly once.
 */

/** Delay before asking again after a failed snapshot request. */
export const SNAPSHOT_RETRY_MS = 3000;

/** Rows of the REST snapshot asked for on a gap (GET /market/depth?symbol&limit). */
export const SNAPSHOT_LIMIT = 100;

export type BookSyncEvent =
  | { type: 'book.gap'; seq: number; reason: ResyncReason }
  | { type: 'book.live' };

export interface BookSyncContext {
  symbol: string;
  /** Snapshot requests made for the current gap (0 while synced). */
  attempts: number;
  /** Why the book left 'live' (the last gap), null while synced. */
  reason: ResyncReason | null;
}

export type BookSyncState = 'synced' | 'gapDetected' | 'fetchingSnapshot' | 'replayingBuffer';

export const bookSyncMachine = setup({
  types: {} as { context: BookSyncContext; events: BookSyncEvent; input: { symbol: string } },
  actors: {
    fetchSnapshot: fromPromise<DepthSnapshot, { symbol: string }>(() => Promise.reject(new Error('fetchSnapshot not provided'))),
  },
  actions: {
    /** Feeds the snapshot to the book's reducer (provided by the core). */
    applySnapshot: (_, _params: { snapshot: DepthSnapshot }) => {},
    /**
     * Records that the machine entered `state` (provided by the core: a `book.sync` log record).
     * Entry actions, so the transient states (`gapDetected` on a first attempt, `replayingBuffer`)
     * are recorded too; the initial `synced` (no gap yet) is not.
     */
    note: (_, _params: { state: BookSyncState }) => {},
  },
  guards: {
    /** The book is live after the snapshot and the buffered diffs were applied (provided by the core). */
    bookLive: () => false,
    firstAttempt: ({ context }) => context.attempts === 0,
    /** The market socket subscribes this book's depth topic (provided by the core). */
    watched: () => true,
  },
  delays: { retry: SNAPSHOT_RETRY_MS },
}).createMachine({
  id: 'bookSync',
  context: ({ input }) => ({ symbol: input.symbol, attempts: 0, reason: null }),
  initial: 'synced',
  states: {
    synced: {
      entry: [{ type: 'note', params: { state: 'synced' } }, assign({ attempts: 0, reason: null })],
      on: { 'book.gap': { target: 'gapDetected', actions: assign({ reason: ({ event }) => event.reason }) } },
    },
    gapDetected: {
      entry: { type: 'note', params: { state: 'gapDetected' } },
      always: { guard: and(['firstAttempt', 'watched']), target: 'fetchingSnapshot' },
      after: { retry: { guard: 'watched', target: 'fetchingSnapshot' } },
      on: { 'book.live': 'synced', 'book.gap': { actions: assign({ reason: ({ event }) => event.reason }) } },
    },
    fetchingSnapshot: {
      entry: [assign({ attempts: ({ context }) => context.attempts + 1 }), { type: 'note', params: { state: 'fetchingSnapshot' } }],
      invoke: {
        src: 'fetchSnapshot',
        input: ({ context }) => ({ symbol: context.symbol }),
        onDone: { target: 'replayingBuffer', actions: { type: 'applySnapshot', params: ({ event }) => ({ snapshot: event.output }) } },
        onError: 'gapDetected',
      },
      on: { 'book.live': 'synced', 'book.gap': { actions: assign({ reason: ({ event }) => event.reason }) } },
    },
    replayingBuffer: {
      entry: { type: 'note', params: { state: 'replayingBuffer' } },
      always: [{ guard: 'bookLive', target: 'synced' }, { target: 'gapDetected' }],
      on: { 'book.gap': { actions: assign({ reason: ({ event }) => event.reason }) } },
    },
  },
});

export type BookSyncLogic = typeof bookSyncMachine;
