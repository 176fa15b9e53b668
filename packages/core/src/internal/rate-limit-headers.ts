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
  daily: 86_401_000,
};

/** A header value safe to show: printable ASCII only (else `?`), at most 40 characters. */
export function shown(raw: string): string {
  return raw.replace(/[^ -~]/g, "?").slice(0, 40);
}

/**
 * The window of one scope stated by `headers`, or undefined when they state none of its three
 * counters, or when one of them is outside the window's bounds (a limit of 0, a count that is not a
 * whole number or past 2^31, a burst reset more than 2 s ahead, a daily one more than a day ahead):
 * then `rejected` (when given) receives `<Header>: <value>` for it.
 */
export function readWindow(
  headers: Headers,
  scope: RateLimitScope,
  now: number = Date.now(),
  rejected?: string[],
): RateLimitWindow | undefined {
  const prefix = scope === "burst" ? "Burst-RateLimit-" : "RateLimit-";
  let stated = false;
  let bad = false;
  let reset: number | undefined;
  const [limit, remaining, resetAt] = ["Limit", "Remaining", "Reset"].map((counter, i) => {
    const raw = headers.get(prefix + counter)?.trim();
    if (!raw) return undefined;
    stated = true;
    const value = /^\d+(?:\.\d+)?$/.test(raw) ? Number(raw) : NaN;
    const at = value < UNIX_SECONDS_FLOOR ? now + value * 1000 : Math.round(value * 1000);
    const ok =
      i < 2
        ? Number.isInteger(value) && value <= MAX_COUNT && (i > 0 || value > 0)
        : at - now <= MAX_RESET_AHEAD_MS[scope];
    if (!ok) {
      bad = true;
      rejected?.push(`${prefix}${counter}: ${shown(raw)}`);
    }
    if (i < 2) return value;
    reset = value;
    return at;
  });
  return bad || !stated ? undefined : { scope, limit, remaining, resetAt, reset };
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
