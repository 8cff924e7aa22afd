import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createViewState, isViewValue, type ViewValue } from '../../../src/core/viewState.ts';
import { createRecordedCore } from '../../../src/core/replay/record.ts';
import { replayLog } from '../../../src/core/replay/driver.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { hashState } from '../../../src/ports/stateHash.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory } from '../../../src/ports/fakes.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';

/** View state as intents (issue 16): set() is logged, the replay applies the logged values. */
const key = fc.constantFrom('trade.accountTab', 'trade.interval', 'chart.main', 'orders.futures.page', 'orders.futures.filters', 'wallet.history.page');
const value: fc.Arbitrary<ViewValue> = fc.oneof(
  fc.constantFrom('positions', 'openOrders', '15m', '1h'),
  fc.integer({ min: 1, max: 50 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom('MA', 'EMA', 'BOLL'), { maxLength: 3 }),
  fc.record({ symbol: fc.constantFrom('', 'BTCUSDT'), status: fc.constantFrom('', 'filled') }),
);

function recorded() {
  const clock = new VirtualClock(1_760_000_000_000);
  const rec = createRecordedCore({ clock, http: createScriptedHttp(), socket: createScriptedSocketFactory(), storage: createMemoryStorage(), random: { id: () => 'r' } }, { location: () => '/' });
  return { rec, clock };
}

describe('view state store', () => {
  it('property: a replay of the log ends with the view the user had, and the same state hash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value, fc.nat(2_000)), { minLength: 1, maxLength: 30 }), async (sets) => {
        const { rec, clock } = recorded();
        for (const [k, v, dt] of sets) {
          clock.advance(dt);
          rec.core.view.set(k, v);
        }
        const want = rec.core.view.all();
        const intents = rec.log.records().filter((r) => r.kind === 'ui.intent' && r.actor === 'view');
        // one intent per actual change: a set to the current value is no intent
        let changes = 0;
        const seen = new Map<string, string>();
        for (const [k, v] of sets) {
          if (seen.get(k) !== JSON.stringify(v)) changes += 1;
          seen.set(k, JSON.stringify(v));
        }
        expect(intents).toHaveLength(changes);
        const result = await replayLog(parseReplayText(rec.log.toJsonLines()));
        expect(result.final.state.view).toEqual(want);
        expect(result.final.hash).toBe(hashState(rec.core.state()));
        rec.core.stop();
      }),
      { numRuns: 25 },
    );
  });

  it('a core with no view intents hashes without a view section (fixture hashes unchanged)', () => {
    const { rec } = recorded();
    expect('view' in rec.core.state()).toBe(false);
    rec.core.view.set('trade.accountTab', 'openOrders');
    expect(rec.core.state().view).toEqual({ 'trade.accountTab': 'openOrders' });
    rec.core.stop();
  });

  it('apply() (the replay) does not log; malformed recorded intents are skipped', async () => {
    const store = createViewState();
    const logged: string[] = [];
    store.onIntent = (k) => logged.push(k);
    store.apply('a', 1);
    expect(logged).toEqual([]);
    expect(store.get('a')).toBe(1);
    const text = [
      JSON.stringify({ format: 'rft-log', version: 1, startedAt: 0, firstSeq: 1 }),
      JSON.stringify({ seq: 1, t: 0, kind: 'ui.intent', actor: 'view', event: { type: 'view.set', key: 'x', value: { nested: [1, 'a'] } } }),
      JSON.stringify({ seq: 2, t: 0, kind: 'ui.intent', actor: 'view', event: { type: 'view.set', key: 7, value: 1 } }),
      JSON.stringify({ seq: 3, t: 0, kind: 'ui.intent', actor: 'view', event: { type: 'view.nope', key: 'y', value: 1 } }),
    ].join('\n');
    const result = await replayLog(parseReplayText(`${text}\n`));
    expect(result.final.state.view).toEqual({ x: { nested: [1, 'a'] } });
    expect(isViewValue(Number.NaN)).toBe(false);
    expect(isViewValue(new Date())).toBe(false);
  });
});
