import fc from 'fast-check';
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createPositionPrefs, DEFAULT_POSITION_PREFS } from '../../../src/core/positionPrefs.ts';
import { createTradeLayout, parseTradeLayouts } from '../../../src/core/tradeLayout.ts';
import { createMemoryStorage } from '../../../src/ports/fakes.ts';

const layoutArb = fc.dictionary(fc.constantFrom('chart', 'book', 'form', 'account'), fc.integer({ min: 0, max: 100 }), { minKeys: 1 });

describe('trade layout store (per user, storage port)', () => {
  it('property: each user reads back what they set; another user and the guest keep their own', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom<number | null>(null, 1, 2), fc.constantFrom('cols', 'rows'), layoutArb), { maxLength: 20 }), (steps) => {
        const storage = createMemoryStorage();
        const user$ = new BehaviorSubject<number | null>(null);
        const store = createTradeLayout({ storage, userId$: user$ });
        const model = new Map<string, Record<string, Record<string, number>>>();
        for (const [user, group, layout] of steps) {
          user$.next(user);
          store.set(group, layout);
          const owner = user === null ? 'guest' : String(user);
          model.set(owner, { ...(model.get(owner) ?? {}), [group]: layout });
          expect(store.owner()).toBe(owner);
          expect(store.get()).toEqual(model.get(owner));
        }
        // A fresh core on the same storage reads every owner's layouts back.
        for (const [owner, layouts] of model) {
          const again = createTradeLayout({ storage, userId$: new BehaviorSubject<number | null>(owner === 'guest' ? null : Number(owner)) });
          expect(again.get()).toEqual(layouts);
          again.stop();
        }
        store.stop();
      }),
    );
  });

  it('drops what is not a layout (garbage, out-of-range sizes, empty maps) instead of breaking the screen', () => {
    expect(parseTradeLayouts('not json')).toEqual({});
    expect(parseTradeLayouts('[1,2]')).toEqual({});
    expect(parseTradeLayouts(JSON.stringify({ cols: { a: 50, b: 50 }, rows: { a: 140 }, x: {}, y: 'z' }))).toEqual({ cols: { a: 50, b: 50 } });
    const storage = createMemoryStorage({ 'trade_layout:7': '{"cols":{"a":-1}}' });
    const store = createTradeLayout({ storage, userId$: new BehaviorSubject<number | null>(7) });
    expect(store.get()).toEqual({});
    store.set('cols', { a: Number.NaN });
    expect(storage.get('trade_layout:7')).toBe('{"cols":{"a":-1}}');
    store.stop();
  });

  it('property: position confirmations (no guest owner) are per user; logged out every one asks and a change is not stored', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom<number | null>(null, 1, 2), fc.boolean(), fc.boolean()), { maxLength: 20 }), (steps) => {
        const storage = createMemoryStorage();
        const user$ = new BehaviorSubject<number | null>(null);
        const prefs = createPositionPrefs({ storage, userId$: user$ });
        const model = new Map<number, { confirmClose: boolean; confirmCloseAll: boolean }>();
        for (const [user, confirmClose, confirmCloseAll] of steps) {
          user$.next(user);
          prefs.set({ confirmClose, confirmCloseAll });
          if (user !== null) model.set(user, { confirmClose, confirmCloseAll });
          expect(prefs.get()).toEqual(user === null ? DEFAULT_POSITION_PREFS : model.get(user));
        }
        expect(Object.keys(storage.dump()).sort()).toEqual([...model.keys()].map((u) => `position_confirm:${u}`).sort());
        prefs.stop();
      }),
    );
  });
});
