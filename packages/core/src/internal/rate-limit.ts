// Pacing before the server refuses. A budget per key (API and account) keeps the windows the server
// last reported (burst: per second; daily: the quota), takes one request per attempt, and answers how
// long to wait when a window has nothing left. `createRateLimiter()` is the in-process gate every client
// gets by default; `@api-clients/rate-limit-redis` runs the same model in Redis, atomically.
import type { RateLimitAnswer, RateLimitContext, RateLimiter } from "../options.js";
import {
  MAX_COUNT,
  readWindow,
  refusingWindow,
  type RateLimitWindow,
} from "./rate-limit-headers.js";

/** The burst window of the logs API is one second. */
export const BURST_WINDOW_MS = 1_000;

/** A limit the caller configures for an API that states none in its headers (the management API). */
export interface ConfiguredLimit {
  /** Requests allowed per window. */
  readonly requests: number;
  /** Length of the window, in milliseconds. */
  readonly intervalMs: number;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /**
   * A limit to keep even when the answers state none (for the management API), on top of any the
   * server states.
   * @default none: only the limits the server reports
   */
  readonly limit?: ConfiguredLimit;
}

/**
 * One window of a budget; `intervalMs` known means it rolls over by itself once `resetAt` passes.
 * A field not yet known is absent.
 */
interface Window {
  limit?: number | undefined;
  remaining?: number | undefined;
  resetAt?: number | undefined;
  readonly intervalMs?: number | undefined;
}

/** The windows of one key: burst, daily, and the configured one. */
class Budget {
  declare readonly windows: Record<"burst" | "daily" | "configured", Window>;

  constructor(configured: ConfiguredLimit | undefined) {
    this.windows = {
      burst: { intervalMs: BURST_WINDOW_MS },
      daily: {},
      configured: { limit: configured?.requests, intervalMs: configured?.intervalMs },
    };
  }

  /** 0 after taking one request from every window, else the milliseconds until the first is free. */
  acquire(now: number): number {
    let wait = 0;
    for (const window of Object.values(this.windows)) {
      roll(window, now);
      if (window.remaining === 0 && window.resetAt !== undefined) {
        wait = Math.max(wait, window.resetAt - now);
      }
    }
    if (wait > 0) return wait;
    for (const window of Object.values(this.windows)) {
      if (window.remaining !== undefined) window.remaining = Math.max(0, window.remaining - 1);
    }
    return 0;
  }

  report(answer: RateLimitAnswer, now: number): void {
    const refused = answer.status === 429 ? refusingWindow(answer.headers, now) : undefined;
    for (const scope of ["burst", "daily"] as const) {
      const stated = readWindow(answer.headers, scope, now);
      if (stated === undefined) continue;
      learn(this.windows[scope], refused?.scope === scope ? { ...stated, remaining: 0 } : stated);
    }
  }
}

/** A window whose reset has passed starts over: full when its length and limit are known, else unknown. */
function roll(window: Window, now: number): void {
  if (window.resetAt === undefined) {
    if (window.intervalMs !== undefined && window.limit !== undefined) {
      // A configured window starts with the first request.
      window.resetAt = now + window.intervalMs;
      window.remaining = window.limit;
    }
    return;
  }
  if (now < window.resetAt) return;
  if (window.intervalMs === undefined || window.limit === undefined) {
    window.remaining = undefined;
    window.resetAt = undefined;
    return;
  }
  const elapsed = Math.floor((now - window.resetAt) / window.intervalMs) + 1;
  window.resetAt += elapsed * window.intervalMs;
  window.remaining = window.limit;
}

/**
 * Takes what an answer states: a later window replaces ours; the same window keeps the lower count
 * (ours already counts the requests in flight); an earlier one (a late answer) is ignored.
 */
function learn(window: Window, stated: RateLimitWindow): void {
  if (stated.limit !== undefined) window.limit = stated.limit;
  if (stated.resetAt === undefined || stated.remaining === undefined) return;
  if (window.resetAt === undefined || stated.resetAt > window.resetAt) {
    window.resetAt = stated.resetAt;
    window.remaining = stated.remaining;
  } else if (stated.resetAt === window.resetAt) {
    window.remaining = Math.min(window.remaining ?? stated.remaining, stated.remaining);
  }
}

/**
 * Creates the in-process rate limiter: it keeps, per key, the budget the server last reported
 * (`Burst-RateLimit-*`, `RateLimit-*`) and makes an attempt wait for the reset when nothing is left.
 * Every client has one of its own by default; pass one to several clients of one process to share it.
 *
 * @example
 * const limiter = createRateLimiter({ limit: { requests: 10, intervalMs: 1_000 } });
 * const management = createManagementClient({ email, apiKey, rateLimiter: limiter });
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  return createClockedRateLimiter(options, Date.now);
}

/** The longest configured window, in milliseconds: what a timer can wait (2^31 − 1). */
export const MAX_INTERVAL_MS = 2 ** 31 - 1;

/** Throws a `TypeError` naming the field unless `limit` is a limit a window can keep. */
export function checkConfiguredLimit(limit: ConfiguredLimit | undefined): void {
  if (limit === undefined) return;
  const { requests: n, intervalMs: ms } = limit;
  if (!(Number.isSafeInteger(n) && n > 0 && n <= MAX_COUNT && ms > 0 && ms <= MAX_INTERVAL_MS)) {
    throw new TypeError(`limit: requests must be 1 to 2^31, intervalMs 1 to ${MAX_INTERVAL_MS}`);
  }
}

/** {@link createRateLimiter} on the clock `now` (the tests' controlled time). */
export function createClockedRateLimiter(
  options: RateLimiterOptions,
  now: () => number,
): RateLimiter {
  const limit = options.limit;
  checkConfiguredLimit(limit);
  const budgets = new Map<string, Budget>();
  const budget = (key: string): Budget => {
    let found = budgets.get(key);
    if (found === undefined) budgets.set(key, (found = new Budget(limit)));
    return found;
  };
  return {
    acquire: (key) => budget(key).acquire(now()),
    report: (key, answer) => budget(key).report(answer, now()),
  };
}

/**
 * The key of one API and account: a 64-bit FNV-1a hash (two 32-bit lanes) of the base URL and the
 * `Authorization` value, so the credentials never leave the process, not even to a shared store.
 */
export function budgetKey(baseUrl: string, authorization: string): string {
  return hash64(`${baseUrl}\n${authorization}`);
}

/** A 64-bit hash of `text` as 16 hex digits: FNV-1a and a second lane mixed with it. */
export function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x811c9dc5) ^ (a >>> 15);
  }
  return [a, b].map((n) => (n >>> 0).toString(16).padStart(8, "0")).join("");
}
