import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPageWake, WAKE_AFTER_HIDDEN_MS } from '../../../src/core/pageWake.ts';
import { createRecordedCore } from '../../../src/core/replay/record.ts';
import { replayLog } from '../../../src/core/replay/driver.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { onPageLifecycle } from '../../../src/ports/browser.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';
import { hashState } from '../../../src/ports/stateHash.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';

/** A tab back from the background, or the network back: stale sockets restart (src/core/pageWake.ts). */

type Op = { kind: 'hidden' | 'visible' | 'online' } | { kind: 'wait'; ms: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom<Op>({ kind: 'hidden' }, { kind: 'visible' }, { kind: 'online' }),
  // Waits around the threshold too (one spell of exactly 10 s, or 1 ms short of it).
  fc.oneof(fc.integer({ min: 0, max: 2 * WAKE_AFTER_HIDDEN_MS }), fc.constantFrom(WAKE_AFTER_HIDDEN_MS - 1, WAKE_AFTER_HIDDEN_MS, WAKE_AFTER_HIDDEN_MS / 2, 1)).map((ms): Op => ({ kind: 'wait', ms })),
);

describe('createPageWake', () => {
  it('restarts on every online, and on a visible only after a hidden spell of 10 s or more (from its first hidden)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let now = 0;
        const restarts: number[] = [];
        const wake = createPageWake({ now: () => now, restart: () => restarts.push(now) });
        // Expected, from the spells: when each visible ends one and how long it lasted.
        const expected: number[] = [];
        let spellStart: number | null = null;
        for (const o of ops) {
          if (o.kind === 'wait') now += o.ms;
          else if (o.kind === 'hidden') {
            spellStart ??= now;
            wake.hidden();
          } else if (o.kind === 'visible') {
            if (spellStart !== null && now - spellStart >= WAKE_AFTER_HIDDEN_MS) expected.push(now);
            spellStart = null;
            wake.visible();
          } else {
            expected.push(now);
            wake.online();
          }
        }
        expect(restarts).toEqual(expected);
      }),
    );
  });

  it('a page that was never hidden does not restart when it reports visible', () => {
    let restarts = 0;
    const wake = createPageWake({ now: () => 1e6, restart: () => void (restarts += 1) });
    wake.visible();
    wake.visible();
    expect(restarts).toBe(0);
  });
});

function recordedCore() {
  const clock = new VirtualClock(1_760_000_000_000);
  const http = createScriptedHttp();
  http.on('GET', '/user/info', envelope(200, 'success', { id: 1 }));
  const sockets = createScriptedSocketFactory();
  const rec = createRecordedCore(
    { clock, http, socket: sockets, storage: createMemoryStorage(), random: { id: () => 'r' } },
    { location: () => '/', env: { appVersion: 't', language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'test' } },
  );
  return { rec, clock, sockets };
}

const marketSockets = (sockets: ReturnType<typeof createScriptedSocketFactory>) => sockets.sockets.filter((s) => s.url === '/api/ws/market');

describe('core.wake and the sockets', () => {
  it('after 10 s hidden the market socket reconnects and resubscribes its topics; after less it is left alone', () => {
    const { rec, clock, sockets } = recordedCore();
    const { core } = rec;
    core.market.send({ type: 'socket.subscribe', topics: ['btcusdt@depth'] });
    marketSockets(sockets)[0]?.open();
    core.wake.hidden();
    clock.advance(WAKE_AFTER_HIDDEN_MS - 1);
    core.wake.visible();
    expect(marketSockets(sockets)).toHaveLength(1);

    core.wake.hidden();
    clock.advance(WAKE_AFTER_HIDDEN_MS);
    core.wake.visible();
    const [first, second] = marketSockets(sockets);
    expect(first?.closedByApp).toBe(true);
    expect(second).toBeDefined();
    second?.open();
    expect(second?.sent.map((d) => JSON.parse(d) as unknown)).toContainEqual({ action: 'subscribe', topics: ['btcusdt@depth'] });
    // Logged as intents, so a replay restarts the socket at the same moment.
    const intents = rec.log.records().filter((r) => r.kind === 'ui.intent' && (r.event as { type: string }).type === 'socket.reconnectNow');
    expect(intents.map((r) => r.actor)).toEqual(['market', 'user']);
    core.stop();
  });

  it('back online while waiting to reconnect: the market socket reconnects now, not after 10 s', () => {
    const { rec, sockets } = recordedCore();
    marketSockets(sockets)[0]?.open();
    marketSockets(sockets)[0]?.close(1006, '');
    expect(rec.core.market.getSnapshot().value).toBe('reconnecting');
    rec.core.wake.online();
    expect(marketSockets(sockets)).toHaveLength(2);
    expect(rec.core.market.getSnapshot().matches('live')).toBe(true);
    rec.core.stop();
  });

  it('a recorded wake replays to the same state', async () => {
    const { rec, clock, sockets } = recordedCore();
    rec.core.market.send({ type: 'socket.subscribe', topics: ['btcusdt@ticker'] });
    marketSockets(sockets)[0]?.open();
    rec.core.wake.hidden();
    clock.advance(30_000);
    rec.core.wake.visible();
    marketSockets(sockets)[1]?.open();
    clock.advance(1_000);
    const live = hashState(rec.core.state());
    const replayed = await replayLog(parseReplayText(rec.log.toJsonLines()));
    expect(replayed.divergences).toEqual([]);
    expect(replayed.final.hash).toBe(live);
    rec.core.stop();
  });
});

describe('onPageLifecycle', () => {
  it('reports hidden / visible from visibilitychange and online, and stops on unsubscribe', () => {
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const win = new EventTarget();
    const seen: string[] = [];
    const stop = onPageLifecycle(doc, win, { hidden: () => seen.push('hidden'), visible: () => seen.push('visible'), online: () => seen.push('online') });
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    win.dispatchEvent(new Event('online'));
    stop();
    win.dispatchEvent(new Event('online'));
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(seen).toEqual(['hidden', 'visible', 'online']);
  });

  it('a page already hidden when it starts counts as hidden from then', () => {
    const doc = Object.assign(new EventTarget(), { visibilityState: 'hidden' as DocumentVisibilityState });
    const seen: string[] = [];
    onPageLifecycle(doc, new EventTarget(), { hidden: () => seen.push('hidden'), visible: () => seen.push('visible'), online: () => seen.push('online') });
    expect(seen).toEqual(['hidden']);
  });
});
