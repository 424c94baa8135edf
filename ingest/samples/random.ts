/**
 * Deterministic pseudo-random numbers for the sample generators: the same seed must give byte-identical demo
 * files (tests assert values from them, and `make demo` is reproducible). Never for anything secret.
 */

/** mulberry32: tiny, fast, stable across Node versions, good enough for demo data. Values in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 32-bit linear congruential source. Weaker than mulberry32; kept because the proxy (Numerical Recipes
 * constants, the default) and IRS 990 (ANSI C constants) samples were generated with it.
 */
export function lcg(seed: number, multiplier = 1664525, increment = 1013904223): () => number {
  let s = seed >>> 0 || 1;
  return () => (s = (Math.imul(s, multiplier) + increment) >>> 0) / 2 ** 32;
}

export function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)];
}

/** mulberry32 with the helpers the samples use; methods may be passed around unbound. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    // Seed 0 is swapped for a fixed constant: the adviser samples were first generated that way.
    this.next = mulberry32(seed >>> 0 || 0x9e3779b9);
  }
  /** An integer in [lo, hi], both included. */
  int = (lo: number, hi: number): number => lo + Math.floor(this.next() * (hi - lo + 1));
  pick = <T>(xs: readonly T[]): T => pick(this.next, xs);
  chance = (p: number): boolean => this.next() < p;
  /** Log-uniform amounts: AUM and fund sizes span many orders of magnitude in the real data. */
  logUniform = (lo: number, hi: number): number => Math.round(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo))));
}
