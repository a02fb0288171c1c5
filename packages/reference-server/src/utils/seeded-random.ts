/**
 * A small deterministic random source: `mulberry32`, seeded with a 32-bit FNV-1a hash of a seed and
 * a key. The same seed and key give the same numbers on every run and platform (integer math only
 * until the final division), which is what lets seeded chaos be replayed.
 */
export function seededRandom(seed: number, key: string): () => number {
  let state = fnv1a(`${seed}\u0000${key}`);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
