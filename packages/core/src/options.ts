/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;

/** Default limit for one attempt, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Default bound on a whole call, attempts and waits included, in milliseconds: two minutes, room for
 * three attempts that each use their full 30 s with the backoff waits between them, or two attempts
 * around a 60 s wait the server asks for.
 */
export const DEFAULT_DEADLINE_MS = 120_000;

/**
 * Default limit for the size of one response body, in bytes: 8 MiB, eight times the largest real page
 * (~1 MB). Reading a body through Node's `fetch` grows memory by three to four times its size until the
 * garbage collector runs (each chunk is copied out of the socket's buffer), so this keeps a client's
 * growth near 30 MiB, under 64 MiB, whatever a server sends.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** The fields every log event carries, so that the events of one call can be joined. */
export interface CallLogFields {
  /** Which API: `"logs"` or `"management"`. */
  api: string;
  /** Shared by every event of one call (its attempts, retries, warnings and its end). */
  callId: string;
  /** The spec's operationId, e.g. `listLogs`. */
  operationId: string;
  /** The spec's path template, e.g. `/v2/redis/database/{id}`. */
  path: string;
  /** HTTP method. */
  method: string;
  /**
   * Request URL without credentials; query parameters are named without their values
   * (`https://qstash.upstash.io/v2/logs?count&state`).
   */
  url: string;
}

/** An attempt is about to be sent. */
export interface RequestLogEvent extends CallLogFields {
  type: "request";
  /** Attempt number, starting at 1. */
  attempt: number;
}

/** A response (any status) arrived for an attempt. */
export interface ResponseLogEvent extends CallLogFields {
  type: "response";
  /** HTTP status code. */
  status: number;
  /** Attempt number, starting at 1. */
  attempt: number;
  /** Time from sending to the response headers, in milliseconds. */
  durationMs: number;
}

/** An attempt failed and another one will follow after `delayMs`. */
export interface RetryLogEvent extends CallLogFields {
  type: "retry";
  /** Number of the attempt that failed, starting at 1. */
  attempt: number;
  /** Wait before the next attempt, in milliseconds. */
  delayMs: number;
  /** Why it is retried, e.g. `status 503` or `timeout`. */
  reason: string;
}

/** The next attempt waits for the rate limit: the budget the server reported has nothing left. */
export interface RateLimitLogEvent extends CallLogFields {
  type: "rate-limit";
  /** Number of the attempt that waits, starting at 1. */
  attempt: number;
  /** How long it waits before asking the rate limiter again, in milliseconds. */
  delayMs: number;
}

/**
 * The call failed for good (an HTTP error, a connection failure, a timeout, an abort, a response
 * that is not what the spec promises): always the last event of a failed call, and its only `error`.
 * A call that succeeds has none; its last event is its final `response`.
 */
export interface ErrorLogEvent extends CallLogFields {
  type: "error";
  /** Number of the last attempt, starting at 1 (0 when the call was aborted before its first). */
  attempt: number;
  /** Message of the thrown error (never contains credentials). */
  error: string;
}

/** Something worth knowing that does not stop the call, e.g. body fields the spec does not list. */
export interface WarningLogEvent extends CallLogFields {
  type: "warning";
  /** What is worth knowing, e.g. `body.colour is not in the spec; sent as given`. */
  message: string;
}

/** Structured event passed to a {@link Logger}; it never contains headers, so never credentials. */
export type LogEvent =
  | RequestLogEvent
  | ResponseLogEvent
  | RetryLogEvent
  | RateLimitLogEvent
  | ErrorLogEvent
  | WarningLogEvent;

/**
 * Receives structured events about requests, responses, retries and failures.
 *
 * @example
 * const logger: Logger = (event) => console.debug(JSON.stringify(event));
 */
export type Logger = (event: LogEvent) => void;

/** What a {@link RateLimiter} is given with each request for the budget. */
export interface RateLimitContext {
  /** Aborts when the caller aborts or the call's deadline passes: stop waiting on anything then. */
  readonly signal: AbortSignal;
  /** Reports something worth knowing (as a `warning` log event), e.g. a shared store being unreachable. */
  warn(message: string): void;
  /**
   * What the limiter keeps for this call between its asks, e.g. a place it reserved in a window to
   * come, to send in without asking again. The call's own: the client never reads it, and it goes
   * with the call. `undefined` until the limiter sets it.
   */
  held?: unknown;
}

/** The status and headers of an answer, reported to a {@link RateLimiter}. */
export interface RateLimitAnswer {
  /** HTTP status code (429 when the server refused for the rate limit). */
  readonly status: number;
  /** Response headers: `Burst-RateLimit-*` and `RateLimit-*` state the budget. */
  readonly headers: Headers;
}

/**
 * Paces the requests of one budget. Before each attempt the client calls `acquire` until it resolves to
 * `0` (the attempt may be sent; one request is taken from the budget), waiting the milliseconds it
 * resolves to otherwise (within the call's signal and deadline); after each answer it calls `report`,
 * so the limiter learns the budget from the headers. A limiter that throws never fails a call: the
 * attempt goes ahead and a `warning` event says why. The default is an in-process gate per client
 * (`createRateLimiter()`); `@api-clients/rate-limit-redis` shares one budget across processes.
 */
export interface RateLimiter {
  /**
   * Takes one request from the budget of `key` and resolves to 0, or resolves to the milliseconds to
   * wait before asking again when nothing is left in the current window.
   * `key` names the API and the account (a hash: it never holds the credentials).
   */
  acquire(key: string, context: RateLimitContext): Promise<number> | number;
  /** Learns the budget of `key` from an answer's headers. */
  report(key: string, answer: RateLimitAnswer, context: RateLimitContext): Promise<void> | void;
}

/** Options shared by every client; `maxRetries`, `timeoutMs` and `deadlineMs` can be overridden per call. */
export interface ClientOptions {
  /**
   * Base URL of the API, e.g. `https://qstash.upstash.io`. Must be `https` unless the host is loopback
   * (`localhost`, `127.0.0.0/8`, `::1`) or {@link ClientOptions.allowInsecureHttp} is set. A trailing
   * `/v2` (as in the management reference's `https://api.upstash.com/v2`) is dropped: the paths carry it.
   * When absent, the client reads an environment variable (where `process.env` exists): `QSTASH_URL` for
   * the logs client, `UPSTASH_API_URL` for the management client.
   * @default process.env.QSTASH_URL or process.env.UPSTASH_API_URL, else the service's public URL
   */
  baseUrl?: string;
  /**
   * `fetch` implementation used for every attempt (for proxies, custom agents or instrumentation); it
   * must resolve to a WHATWG `Response` (node-fetch's is not one: `InvalidResponseError`).
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Extra headers sent with every request (an object, a `Headers` or name/value pairs); values must be
   * valid header values (no CR, LF or characters above U+00FF). `Authorization` is always the client's.
   * @default {}
   */
  headers?: Record<string, string> | Headers | Array<[string, string]>;
  /**
   * How many times a failed request is retried (so at most `maxRetries + 1` attempts); `0` disables retries.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Limit for each attempt (connecting, waiting and reading the response), in milliseconds; at most
   * 2147483647 (about 24.8 days, the largest timer delay).
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * Bound on a whole call, in milliseconds: every attempt, the retry waits and the rate-limit waits.
   * An attempt in flight at the deadline is aborted, and a wait that would end after it is not started;
   * the call then fails with a `DeadlineExceededError` (or with the answer that asked for that wait,
   * its message naming the deadline). At most 2147483647.
   * @default 120000 (two minutes)
   */
  deadlineMs?: number;
  /**
   * Paces requests by the budget the server reports in its rate-limit headers: when nothing is left in
   * the current window, the next request waits for the reset instead of being refused.
   * @default an in-process gate of this client (`createRateLimiter()`)
   */
  rateLimiter?: RateLimiter;
  /**
   * Largest response body accepted, in bytes, enforced while it streams in; a larger body fails the
   * call, naming the limit: an `InvalidResponseError` for a 2xx, else the error of its status (without
   * the body).
   * @default 8388608 (8 MiB)
   */
  maxResponseBytes?: number;
  /**
   * Receives structured request/response/retry/error events; credentials are never included. A logger
   * that throws, or returns a promise that rejects, is ignored: it never breaks a request.
   * @default undefined (no logging)
   */
  logger?: Logger;
  /**
   * Allow a plain `http:` base URL on a non-loopback host (credentials then travel unencrypted).
   * @default false
   */
  allowInsecureHttp?: boolean;
}

/** Per-call options, passed as the last argument of every client method; they override the client's. */
export interface RequestOptions {
  /**
   * Aborts the call, including any pending retry wait; the call rejects with an `AbortError` whose
   * `cause` is the signal's reason.
   * @default undefined
   */
  signal?: AbortSignal;
  /**
   * Limit for each attempt of this call, in milliseconds.
   * @default the client's `timeoutMs` (30000)
   */
  timeoutMs?: number;
  /**
   * Retries for this call.
   * @default the client's `maxRetries` (2)
   */
  maxRetries?: number;
  /**
   * Bound on this whole call (attempts and waits), in milliseconds.
   * @default the client's `deadlineMs` (120000)
   */
  deadlineMs?: number;
}
