// The service's rate-limit headers, read once for the error classes, the retry rule and the gate:
// `Burst-RateLimit-Limit/Remaining/Reset` (the per-second burst window) and `RateLimit-Limit/Remaining/
// Reset` (the daily quota), Reset in Unix seconds.

/** Which budget a rate-limit window is: the per-second burst limit or the daily quota. */
export type RateLimitScope = "burst" | "daily";

/** One window as an answer states it; `resetAt` in Unix milliseconds. */
export interface RateLimitWindow {
  readonly scope: RateLimitScope;
  readonly limit: number | undefined;
  readonly remaining: number | undefined;
  readonly resetAt: number | undefined;
}

/** A Reset below this is read as delta-seconds (the IETF draft's form), above as Unix seconds. */
const UNIX_SECONDS_FLOOR = 1_000_000_000;

function count(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name)?.trim();
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

function resetAt(headers: Headers, name: string, now: number): number | undefined {
  const raw = headers.get(name)?.trim();
  if (raw === undefined || !/^\d+(?:\.\d+)?$/.test(raw)) return undefined;
  const seconds = Number(raw);
  return seconds < UNIX_SECONDS_FLOOR ? now + seconds * 1000 : Math.round(seconds * 1000);
}

/** The window of one scope stated by `headers`, or undefined when they state none of its three counters. */
export function readWindow(
  headers: Headers,
  scope: RateLimitScope,
  now: number = Date.now(),
): RateLimitWindow | undefined {
  const prefix = scope === "burst" ? "burst-ratelimit-" : "ratelimit-";
  const window = {
    scope,
    limit: count(headers, `${prefix}limit`),
    remaining: count(headers, `${prefix}remaining`),
    resetAt: resetAt(headers, `${prefix}reset`, now),
  };
  const stated =
    window.limit !== undefined || window.remaining !== undefined || window.resetAt !== undefined;
  return stated ? window : undefined;
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
