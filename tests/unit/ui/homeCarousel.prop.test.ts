import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SWIPE_THRESHOLD_PX,
  initialCarousel,
  reduceCarousel,
  type CarouselEvent,
} from '../../../src/ui/screens/home/carousel.ts';

const eventArb: fc.Arbitrary<CarouselEvent> = fc.oneof(
  fc.constant({ type: 'next' as const }),
  fc.constant({ type: 'prev' as const }),
  fc.constant({ type: 'tick' as const }),
  fc.constant({ type: 'pause' as const }),
  fc.constant({ type: 'resume' as const }),
  fc.integer({ min: -20, max: 20 }).map((index) => ({ type: 'goTo' as const, index })),
  fc.double({ min: -500, max: 500 }).map((dx) => ({ type: 'swipe' as const, dx })),
);

describe('home carousel reducer', () => {
  it('index stays within [0, count) for any event sequence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(eventArb, { maxLength: 60 }), (count, events) => {
        let s = initialCarousel(count);
        for (const e of events) {
          s = reduceCarousel(s, e);
          expect(s.index).toBeGreaterThanOrEqual(0);
          expect(s.index).toBeLessThan(count);
          expect(Number.isInteger(s.index)).toBe(true);
        }
      }),
    );
  });

  it('tick is a no-op while paused; next and prev are inverses', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(eventArb, { maxLength: 30 }), (count, events) => {
        const s = events.reduce(reduceCarousel, initialCarousel(count));
        const paused = reduceCarousel(s, { type: 'pause' });
        expect(reduceCarousel(paused, { type: 'tick' })).toEqual(paused);
        expect(reduceCarousel(reduceCarousel(s, { type: 'next' }), { type: 'prev' }).index).toBe(s.index);
      }),
    );
  });

  it('count nexts come back to the start; six banners autoplay in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 7 }), (count, start) => {
        let s = reduceCarousel(initialCarousel(count), { type: 'goTo', index: start });
        const from = s.index;
        for (let i = 0; i < count; i++) s = reduceCarousel(s, { type: 'next' });
        expect(s.index).toBe(from);
      }),
    );
    let s = initialCarousel(6);
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      seen.push(s.index);
      s = reduceCarousel(s, { type: 'tick' });
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 0]);
  });

  it('short drags are taps; left swipe goes forward, right swipe back', () => {
    const s = initialCarousel(6);
    expect(reduceCarousel(s, { type: 'swipe', dx: SWIPE_THRESHOLD_PX - 1 })).toEqual(s);
    expect(reduceCarousel(s, { type: 'swipe', dx: -SWIPE_THRESHOLD_PX }).index).toBe(1);
    expect(reduceCarousel(s, { type: 'swipe', dx: SWIPE_THRESHOLD_PX }).index).toBe(5);
  });
});
