/** A seeded generator (mulberry32) so benchmark data is the same in every run. */
export function seededRandom(initialSeed: number): { rand: () => number; pick: <T>(xs: readonly T[]) => T } {
  let seed = initialSeed;
  const rand = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { rand, pick: (xs) => xs[Math.floor(rand() * xs.length)] };
}
