/**
 * The Home banner carousel as a pure reducer: autoplay ticks, arrows, dots and swipes all
 * become events, so the behaviour is testable without timers or a DOM (the component owns
 * the interval and the pointer listeners).
 *
 * Invariants (property-tested in tests/unit/ui/homeCarousel.prop.test.ts):
 * - `0 <= index < count` after any sequence of events (count >= 1).
 * - `tick` does nothing while paused (hover / focus / hidden tab) and `next` always moves.
 * - n `next` events from any index come back to it when n is a multiple of count.
 */

export interface CarouselState {
  index: number;
  count: number;
  /** Autoplay is held (pointer over the banner, keyboard focus inside it, or a drag in progress). */
  paused: boolean;
}

export type CarouselEvent =
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'goTo'; index: number }
  | { type: 'tick' }
  | { type: 'pause' }
  | { type: 'resume' }
  /** A finished horizontal swipe: `dx` is the pointer travel in px (negative = to the left). */
  | { type: 'swipe'; dx: number };

/** A swipe shorter than this is a tap, not a slide change. */
export const SWIPE_THRESHOLD_PX = 40;
/** Autoplay period of the home banners. */
export const AUTOPLAY_MS = 5_000;

export function initialCarousel(count: number): CarouselState {
  return { index: 0, count: Math.max(1, Math.floor(count)), paused: false };
}

function wrap(index: number, count: number): number {
  return ((index % count) + count) % count;
}

export function reduceCarousel(state: CarouselState, event: CarouselEvent): CarouselState {
  switch (event.type) {
    case 'next':
      return { ...state, index: wrap(state.index + 1, state.count) };
    case 'prev':
      return { ...state, index: wrap(state.index - 1, state.count) };
    case 'goTo':
      if (!Number.isInteger(event.index)) return state;
      return { ...state, index: wrap(event.index, state.count) };
    case 'tick':
      return state.paused ? state : { ...state, index: wrap(state.index + 1, state.count) };
    case 'pause':
      return state.paused ? state : { ...state, paused: true };
    case 'resume':
      return state.paused ? { ...state, paused: false } : state;
    case 'swipe':
      if (!Number.isFinite(event.dx) || Math.abs(event.dx) < SWIPE_THRESHOLD_PX) return state;
      return { ...state, index: wrap(state.index + (event.dx < 0 ? 1 : -1), state.count) };
  }
}
