import { ConnectionError, TimeoutError } from "../errors.js";
import { parseRetryAfterMs } from "./retry-after.js";
import { refusingWindow, RESET_MARGIN_MS } from "./rate-limit-headers.js";
import { seconds } from "./deadline.js";

/** First backoff wait, in milliseconds (doubled per attempt, with jitter). */
export const INITIAL_RETRY_DELAY_MS = 500;

/** Longest backoff wait, in milliseconds. */
export const MAX_RETRY_DELAY_MS = 8_000;

/** Longest server-requested wait that is honoured, in milliseconds; above it the call fails instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Error codes meaning the connection was never established, so no byte of the request was sent. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Methods that are safe to repeat unless an operation declares otherwise. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "DELETE", "PUT", "TRACE"]);

/** Whether an HTTP method is idempotent by default (GET, HEAD, OPTIONS, DELETE, PUT, TRACE). */
export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/**
 * Whether an error shows the connection was never established (refused, DNS failure, …), found by
 * walking `error.cause` for a code such as `ECONNREFUSED` or `ENOTFOUND`.
 */
export function isConnectionNotEstablished(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const { code, errors } = current as { code?: unknown; errors?: unknown };
    if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
    if (Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionNotEstablished)) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Exponential backoff for the given failed attempt (1-based): 500 ms doubling up to 8 s, minus up to
 * 25 % jitter.
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.round(base * (1 - random() * 0.25));
}

/** What is known about a failed attempt, for {@link retryDecision}. */
export interface RetryInput {
  /** Number of the attempt that just failed, starting at 1. */
  attempt: number;
  /** Retries allowed in total (attempts = `maxRetries + 1`). */
  maxRetries: number;
  /** Whether the operation is safe to repeat. */
  idempotent: boolean;
  /** Response status, when a response arrived. */
  status?: number | undefined;
  /** Response headers, when a response arrived. */
  headers?: Headers | undefined;
  /** The connection-level error, when no response arrived. */
  error?: unknown;
  /** Random source for jitter, in [0, 1). */
  random?: () => number;
}

/** Whether to retry, after how long (milliseconds), and why; `note` explains a refusal worth telling. */
export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; reason: string; note?: string };

/**
 * The one retry rule: retry connection errors, timeouts, 408, 429 and 5xx, honouring `x-should-retry`;
 * only idempotent operations retry 408/5xx/timeouts/connection errors, while 429 and connections that
 * were never established retry for every operation; wait `retry-after-ms`/`Retry-After` (on a 429 also
 * until the refusing window's reset) or back off, and give up when the server asks for more than 60 s
 * or the daily quota is used up.
 *
 * @example
 * retryDecision({ attempt: 1, maxRetries: 2, idempotent: false, status: 429, headers: new Headers({ "retry-after": "1" }) });
 * // { retry: true, delayMs: 1000, reason: "status 429" }
 */
export function retryDecision(input: RetryInput): RetryDecision {
  const { attempt, maxRetries, idempotent, status, headers } = input;
  let reason: string;
  if (status !== undefined) {
    reason = `status ${status}`;
    // `x-should-retry: true|false` decides; else 429 always, 408 and 5xx when safe to repeat.
    const override = headers?.get("x-should-retry");
    const retryable =
      override === "true" ||
      (override !== "false" &&
        (status === 429 || ((status === 408 || status >= 500) && idempotent)));
    if (!retryable) return { retry: false, reason };
  } else if (input.error instanceof TimeoutError) {
    reason = "timeout";
    if (!idempotent) return { retry: false, reason };
  } else if (input.error instanceof ConnectionError) {
    reason = "connection error";
    if (!idempotent && !isConnectionNotEstablished(input.error)) return { retry: false, reason };
  } else {
    return { retry: false, reason: "not retryable" };
  }
  const stated = headers === undefined ? undefined : statedWait(status, headers);
  // A used-up daily quota is never retried, however near its reset (the error states the reset).
  if (stated?.scope === "daily") {
    return { retry: false, reason: `${reason}; daily quota used up`, note: "not retried" };
  }
  if (attempt > maxRetries) return { retry: false, reason: `${reason}; retries exhausted` };
  const requested = stated?.ms;
  if (requested !== undefined && requested > MAX_RETRY_AFTER_MS) {
    const note =
      `not retried: the server asked to wait ${seconds(requested)} (${stated?.header}), ` +
      `more than the ${seconds(MAX_RETRY_AFTER_MS)} limit`;
    return { retry: false, reason: `${reason}; server asked to wait ${requested} ms`, note };
  }
  return { retry: true, delayMs: requested ?? backoffDelayMs(attempt, input.random), reason };
}

/**
 * The wait an answer states: `retry-after-ms`/`Retry-After`, and on a 429 the reset of the window
 * that refused (`Burst-RateLimit-Reset`, or `RateLimit-Reset` when the daily quota is used up), the
 * later of the two. A reset already past (clocks apart) states nothing.
 */
function statedWait(
  status: number | undefined,
  headers: Headers,
): { ms: number; header: string; scope?: "burst" | "daily" } | undefined {
  const now = Date.now();
  const retryAfter = parseRetryAfterMs(headers, now);
  const stated = retryAfter === undefined ? undefined : { ms: retryAfter, header: "Retry-After" };
  if (status !== 429) return stated;
  const window = refusingWindow(headers, now);
  const untilReset =
    window.resetAt !== undefined && window.resetAt > now
      ? window.resetAt - now + RESET_MARGIN_MS
      : undefined;
  if (untilReset === undefined || (retryAfter !== undefined && retryAfter >= untilReset)) {
    return stated;
  }
  const header = window.scope === "daily" ? "RateLimit-Reset" : "Burst-RateLimit-Reset";
  return { ms: untilReset, header, scope: window.scope };
}
