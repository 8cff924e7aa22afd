import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { bookSyncMachine, SNAPSHOT_RETRY_MS } from '../../src/machines/bookSyncMachine.ts';
import type { DepthSnapshot } from '../../src/protocol/market.ts';
import { VirtualClock } from '../../src/ports/virtualClock.ts';

/**
 * The book's resync machine under random gaps, socket snapshots, snapshot answers (ok / failed),
 * watch changes and time: a snapshot request is in flight only in `fetchingSnapshot`, at most one
 * at a time; `attempts` is 0 in `synced`; every fetched snapshot is applied exactly once, and
 * only when it is answered in `fetchingSnapshot`; an unwatched book never asks.
 */
type Step =
  | { k: 'gap' }
  | { k: 'live' }
  | { k: 'answer'; ok: boolean; bookLiveAfter: boolean }
  | { k: 'watch'; on: boolean }
  | { k: 'time'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ k: 'gap' as const }),
  fc.constant({ k: 'live' as const }),
  fc.record({ k: fc.constant('answer' as const), ok: fc.boolean(), bookLiveAfter: fc.boolean() }),
  fc.record({ k: fc.constant('watch' as const), on: fc.boolean() }),
  fc.record({ k: fc.constant('time' as const), ms: fc.constantFrom(1, SNAPSHOT_RETRY_MS - 1, SNAPSHOT_RETRY_MS, 2 * SNAPSHOT_RETRY_MS) }),
);

const snap: DepthSnapshot = { symbol: 'BTCUSDT', seq: 1, bids: [], asks: [], ts: 0 };
const reason = { code: 'gap' as const, expectedPrevSeq: 1, prevSeq: 2, firstSeq: 3, lastSeq: 3 };

describe('bookSyncMachine', () => {
  it('property: one request at a time, only while fetching; snapshots applied once; unwatched never asks', async () => {
    let runsThatApplied = 0;
    let runsThatRetried = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const clock = new VirtualClock(0);
        let watched = true;
        let bookLive = false;
        type Flight = { resolve: (s: DepthSnapshot) => void; reject: (e: Error) => void; settled: boolean };
        const io: { inFlight: Flight | null } = { inFlight: null };
        let requests = 0;
        let answeredOk = 0;
        let applied = 0;
        const actor = createActor(
          bookSyncMachine.provide({
            actors: {
              fetchSnapshot: fromPromise<DepthSnapshot, { symbol: string }>(
                () =>
                  new Promise<DepthSnapshot>((resolve, reject) => {
                    requests += 1;
                    expect(watched).toBe(true);
                    expect(io.inFlight === null || io.inFlight.settled).toBe(true); // one request at a time
                    io.inFlight = { resolve, reject, settled: false };
                  }),
              ),
            },
            actions: { applySnapshot: () => void (applied += 1) },
            guards: { bookLive: () => bookLive, watched: () => watched },
          }),
          { clock, input: { symbol: 'BTCUSDT' } },
        );
        actor.start();
        const settle = () => new Promise<void>((r) => setImmediate(r));
        for (const s of steps) {
          const before = actor.getSnapshot().value;
          switch (s.k) {
            case 'gap':
              bookLive = false;
              actor.send({ type: 'book.gap', seq: 1, reason });
              break;
            case 'live':
              bookLive = true;
              actor.send({ type: 'book.live' });
              break;
            case 'watch':
              watched = s.on;
              break;
            case 'time':
              clock.advance(s.ms);
              break;
            case 'answer': {
              const f = io.inFlight;
              if (!f || f.settled) break;
              f.settled = true;
              bookLive = s.bookLiveAfter;
              if (s.ok) {
                if (before === 'fetchingSnapshot') answeredOk += 1;
                f.resolve(snap);
              } else f.reject(new Error('down'));
              await settle();
              break;
            }
          }
          const snapNow = actor.getSnapshot();
          if (snapNow.value === 'synced') expect(snapNow.context.attempts).toBe(0);
          // The invoke was left (a socket snapshot, a stop): its late answer is dropped by XState.
          if (io.inFlight && !io.inFlight.settled && snapNow.value !== 'fetchingSnapshot') io.inFlight.settled = true;
          expect(applied).toBe(answeredOk);
        }
        expect(applied).toBeLessThanOrEqual(requests);
        if (applied > 0) runsThatApplied += 1;
        if (requests > 1) runsThatRetried += 1;
        actor.stop();
      }),
      { numRuns: 200 },
    );
    // The generators do reach the interesting paths (a test that never fetches proves nothing).
    expect(runsThatApplied).toBeGreaterThan(4);
    expect(runsThatRetried).toBeGreaterThan(4);
  });
});
