// The service's rate-limit headers, read once for the error classes, the retry rule and the gate:
// `Burst-RateLimit-Limit/Remaining/Reset` (the per-second burst window) and `RateLimit-Limit/Remaining/
// Reset` (the daily quota), Reset in Unix seconds. A value outside what a window of its kind can mean
// makes that window unknown for the answer (never a reason to block); the reader says which one.

/** Which budget a rate-limit window is: the per-second burst limit or the daily quota. */
export type RateLimitScope = "burst" | "daily";

/** One window as an answer states it; `resetAt` in Unix milliseconds, `reset` the number as sent. */
export interface RateLimitWindow {
  readonly scope: RateLimitScope;
  readonly limit: number | undefined;
  readonly remaining: number | undefined;
  readonly resetAt: number | undefined;
  readonly reset?: number | undefined;
}

/** A header value a window of its kind cannot mean: the window is unknown for that answer. */
export interface RejectedValue {
  /** The header, as the service spells it (`Burst-RateLimit-Reset`). */
  readonly header: string;
  /** The value as sent, cut to 40 characters, anything but printable ASCII shown as `?`. */
  readonly value: string;
  /** Why it cannot be meant, e.g. `more than 2 s ahead`. */
  readonly why: string;
}

/** A Reset below this is read as delta-seconds (the IETF draft's form), above as Unix seconds. */
const UNIX_SECONDS_FLOOR = 1_000_000_000;

/** The largest count a window may state: 2^31. */
export const MAX_COUNT = 2 ** 31;

/**
 * How far ahead a window's reset may be, in milliseconds: a 1-second burst window plus 1 s of clock
 * skew; a day for the daily quota (plus the same skew).
 */
export const MAX_RESET_AHEAD_MS: Readonly<Record<RateLimitScope, number>> = {
  burst: 2_000,
  daily: 86_400_000 + 1_000,
};

const NAMES: Record<RateLimitScope, readonly [string, string, string]> = {
  burst: ["Burst-RateLimit-Limit", "Burst-RateLimit-Remaining", "Burst-RateLimit-Reset"],
  daily: ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"],
};

/** A header value safe to show: printable ASCII only, at most 40 characters. */
export function shown(raw: string): string {
  const clean = raw.replace(/[^\x20-\x7e]/g, "?");
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/** `undefined` when absent; a number; or why the value cannot be meant. */
function count(raw: string | undefined, isLimit: boolean): number | string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) return "not a whole number ≥ 0";
  const value = Number(raw);
  if (value > MAX_COUNT) return "past 2^31";
  return isLimit && value === 0 ? "a limit of 0" : value;
}

function resetAt(raw: string | undefined, scope: RateLimitScope, now: number) {
  if (raw === undefined) return undefined;
  if (!/^\d+(?:\.\d+)?$/.test(raw)) return "not a number of seconds";
  const seconds = Number(raw);
  const at = seconds < UNIX_SECONDS_FLOOR ? now + seconds * 1000 : Math.round(seconds * 1000);
  const ahead = MAX_RESET_AHEAD_MS[scope];
  if (!(at - now <= ahead)) {
    return scope === "burst" ? "more than 2 s ahead (a 1-second window)" : "more than a day ahead";
  }
  return [at, seconds] as const;
}

/**
 * The window of one scope stated by `headers`, or undefined when they state none of its three
 * counters, or when one of them is outside the window's bounds (a limit of 0, a count that is not a
 * whole number or past 2^31, a burst reset more than 2 s ahead, a daily one more than a day ahead):
 * then `rejected` (when given) receives the value and why.
 */
export function readWindow(
  headers: Headers,
  scope: RateLimitScope,
  now: number = Date.now(),
  rejected?: RejectedValue[],
): RateLimitWindow | undefined {
  const names = NAMES[scope];
  const raw = names.map((name) => {
    const value = headers.get(name)?.trim();
    return value === "" ? undefined : value;
  });
  const read = [count(raw[0], true), count(raw[1], false), resetAt(raw[2], scope, now)];
  let bad = false;
  read.forEach((value, i) => {
    if (typeof value !== "string") return;
    bad = true;
    rejected?.push({ header: names[i]!, value: shown(raw[i]!), why: value });
  });
  if (bad || read.every((value) => value === undefined)) return undefined;
  const reset = read[2] as readonly [number, number] | undefined;
  return {
    scope,
    limit: read[0] as number | undefined,
    remaining: read[1] as number | undefined,
    resetAt: reset?.[0],
    reset: reset?.[1],
  };
}

/**
 * The window that refused a 429: the daily quota when `RateLimit-Remaining` is 0, else the burst
 * window (with whatever of its counters the answer states).
 */
export function refusingWindow(headers: Headers, now: number = Date.now()): RateLimitWindow {
  const daily = readWindow(headers, "daily", now);
  if (daily?.remaining === 0) return daily;
  return (
    readWindow(headers, "burst", now) ?? {
      scope: "burst",
      limit: undefined,
      remaining: undefined,
      resetAt: undefined,
    }
  );
}

/**
 * Waits for a window's reset end this much after the stated time, so an attempt never reaches the
 * server a tick before the window turns (timers may fire up to a millisecond early).
 */
export const RESET_MARGIN_MS = 20;

/** An ISO date for a time in Unix milliseconds, or `undefined` past what a `Date` can hold. */
export function isoDate(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
