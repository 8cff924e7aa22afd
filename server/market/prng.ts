/**
 * A small seeded PRNG (mulberry32) so the simulator is reproducible: the same seed gives the
 * same stream of numbers on every machine. Never use Math.random in the market engine.
 */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box–Muller, one value per call). */
  normal(): number;
  /** Integer in [0, n). */
  int(n: number): number;
}

/** Hashes a string to a 32-bit unsigned integer (FNV-1a), used to derive per-symbol seeds. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Creates a mulberry32 generator; `seed` is truncated to 32 bits. */
export function createPrng(seed: number): Prng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    normal() {
      const u = 1 - next(); // (0, 1]
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    int(n) {
      return Math.floor(next() * n);
    },
  };
}
