/**
 * Screen-owned actors (the order ticket, the KYC form, the compensation dialog, the coupon merge)
 * live as long as their screen, not in the core; but what the user does to them is part of the
 * record (DESIGN §2): every UI intent a screen sends to its actor goes through {@link ScreenActors}.
 *
 * - Recording: `onIntent` (set by createRecordedCore) logs `ui.intent {actor: 'screen:<name>', event}`.
 * - Browser replay: the mounted screen registers its actor under its name; the replay driver sends
 *   each recorded screen intent to it, so the screen does what the user did and its requests are
 *   answered from the recording (support sees the dialog, the form, the result).
 * - Headless replay has no screens: the core builds the flow's actor from its table for the first
 *   recorded intent (src/core/screenMachines.ts `createFor`), registers it here under the same name
 *   and stops it when the replayed user leaves the screen's path; the intents and their requests
 *   are the same as under the screen.
 *
 * Events a screen derives from data (socket frames, contract rules, URL parameters) are sent with
 * `derived: true`: they are not intents, since the replayed screen derives them again.
 */
export interface ScreenTarget {
  send(event: { type: string }): void;
}

export interface ScreenActors {
  /** Registers the mounted screen's actor; returns the unregister function (for effect cleanup). */
  register(name: string, target: ScreenTarget): () => void;
  get(name: string): ScreenTarget | undefined;
  /** Records a UI intent of a screen actor (no-op until a recorder sets it). */
  onIntent: ((name: string, event: { type: string }) => void) | null;
}

export const SCREEN_ACTOR_PREFIX = 'screen:';

export function createScreenActors(): ScreenActors {
  const targets = new Map<string, ScreenTarget>();
  return {
    register(name, target) {
      targets.set(name, target);
      return () => {
        if (targets.get(name) === target) targets.delete(name);
      };
    },
    get: (name) => targets.get(name),
    onIntent: null,
  };
}

/**
 * A copy of an intent with every Blob / File replaced by its description `{name, type, size}`
 * (a File's fields are not enumerable, so it would log as `{}`; the bytes never enter the log).
 */
export function describeBlobs<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof Blob !== 'undefined' && v instanceof Blob) {
      return { name: typeof (v as { name?: unknown }).name === 'string' ? (v as File).name : 'blob', type: v.type, size: v.size };
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
