// Seeded randomness the generators share: a small PRNG, picks, ids shaped like the service's, and
// base64 of text (without `Buffer`).

/** A small, fast, seedable PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, items: readonly T[]): T =>
  items[Math.floor(rng() * items.length)] as T;
export const int = (rng: Rng, min: number, max: number): number =>
  min + Math.floor(rng() * (max - min + 1));
/** Base64 of the UTF-8 bytes of `s` (without `Buffer`, which browsers and Workers lack). */
export const b64 = (s: string): string =>
  btoa(Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join(""));

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** An id shaped like the service's (`msg_...`, `scd_...`). */
export function randomId(rng: Rng, prefix: string, length = 28): string {
  let s = prefix;
  for (let i = 0; i < length; i++) s += ID_ALPHABET.charAt(Math.floor(rng() * ID_ALPHABET.length));
  return s;
}
