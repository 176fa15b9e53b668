// Where an emulator's ids, secrets and times come from: its own clock and random source, so that two
// emulators created with the same `idSeed` and `clock` answer the same requests with the same bytes.
import { prng } from "./prng.js";

/** The clock and random source of one emulator. */
export interface Entropy {
  /** The current time, Unix milliseconds. */
  now(): number;
  /** `n` random bytes. */
  bytes(n: number): Uint8Array;
}

/** Random bytes from the platform's `crypto.getRandomValues` (Node, browsers, Workers). */
const cryptoBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** Bytes from a seeded generator: the same seed gives the same bytes, in order. */
function seededBytes(seed: number): (n: number) => Uint8Array {
  const rng = prng(seed);
  return (n) => Uint8Array.from({ length: n }, () => Math.floor(rng() * 256));
}

/** An emulator's entropy: `clock` (default `Date.now`), bytes seeded by `idSeed` or from crypto. */
export function createEntropy(clock?: () => number, idSeed?: number): Entropy {
  return {
    now: clock ?? Date.now,
    bytes: idSeed === undefined ? cryptoBytes : seededBytes(idSeed),
  };
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** `n` random bytes as base64url text without padding (a token, a password). */
export function token(e: Entropy, n = 24): string {
  const b = e.bytes(n);
  let out = "";
  for (let i = 0; i < b.length; i += 3) {
    const chunk = ((b[i] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    const chars = i + 2 < b.length ? 4 : i + 1 < b.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += BASE64URL[(chunk >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** `n` random bytes as lower-case hex. */
export const hex = (e: Entropy, n: number): string =>
  Array.from(e.bytes(n), (b) => b.toString(16).padStart(2, "0")).join("");

/** A version 4 UUID. */
export function uuid(e: Entropy): string {
  const b = e.bytes(16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The current time, Unix seconds. */
export const seconds = (e: Entropy): number => Math.floor(e.now() / 1000);
