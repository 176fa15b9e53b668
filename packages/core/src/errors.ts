import { describeStatus } from "./internal/status-text.js";
import { redactUrl, truncate } from "./internal/redact.js";
import { parseRetryAfterMs } from "./internal/retry-after.js";
import {
  isoDate,
  readWindow,
  refusingWindow,
  type RateLimitScope,
} from "./internal/rate-limit-headers.js";

/** Static key under which each error class keeps its brand symbol. */
const BRAND_KEY = Symbol.for("api-clients.error.brand");

type AnyClass = abstract new (...args: never[]) => unknown;

/**
 * Names the class, and marks its prototype with `Symbol.for("api-clients.error.<name>")`, so that
 * `instanceof` agrees across two copies of this package (each copy marks with the same global symbol).
 */
function brand(cls: AnyClass, name: string): void {
  const symbol = Symbol.for(`api-clients.error.${name}`);
  Object.defineProperty(cls, BRAND_KEY, { value: symbol });
  Object.defineProperty(cls.prototype, symbol, { value: true });
  Object.defineProperty(cls.prototype, "name", { value: name, writable: true, configurable: true });
}

// The classes' fields are `declare`d and set in their constructors, in the order they are declared
// (so the own properties keep that order), which emits no class-field definitions into the bundles.

/** Header names that may carry the server's request id, most specific first. */
const REQUEST_ID_HEADERS = [
  "x-request-id",
  "request-id",
  "upstash-request-id",
  "x-upstash-request-id",
];

/**
 * Base class of every error thrown by the API clients, so one `instanceof` check catches them all.
 *
 * @example
 * try { await client.list() } catch (err) { if (err instanceof ApiClientError) console.error(err.message) }
 */
export class ApiClientError extends Error {
  /**
   * `true` when a state-changing call failed after an earlier attempt whose outcome is unknown (a
   * timeout, a reset connection or a 5xx) and was retried: the change may have been applied, so read
   * the resource before repeating it. `false` otherwise.
   */
  maybeApplied = false;

  /** Brand-based `instanceof`, so errors from another copy of this package are recognised too. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (!Object.hasOwn(this, BRAND_KEY))
      return Function.prototype[Symbol.hasInstance].call(this, value);
    const symbol = (this as unknown as Record<symbol, symbol>)[BRAND_KEY] as symbol;
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[symbol] === true
    );
  }

  /** Serialisable summary: name and message (subclasses add their fields, never credentials). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      ...(this.maybeApplied && { maybeApplied: true }),
    };
  }
}
brand(ApiClientError, "ApiClientError");

/** Facts about a non-2xx (or unusable 2xx) response, used to build an {@link ApiError}. */
export interface ApiErrorInit {
  /** HTTP status code. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** HTTP method of the request. */
  method: string;
  /** URL of the request. */
  url: string;
  /** How many attempts were made, the last one included. @default 1 */
  attempts?: number | undefined;
  /** Why the request was not tried again, when that is worth saying (e.g. a wait above the cap). */
  note?: string | undefined;
}

/** `", after 3 attempts"` when more than one attempt was made, else `""`. */
function attemptsSuffix(attempts: number): string {
  return attempts > 1 ? `, after ${attempts} attempts` : "";
}

/** Reads the server's own message from an error body: `error`, then `message`, then the raw text. */
function serverMessage(body: unknown): string | undefined {
  const text = typeof body === "string" ? body.trim() : bodyText(body);
  return text ? truncate(text) : undefined;
}

/** The message of a body that is not a string (`undefined` for none). */
function bodyText(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return body == null ? undefined : String(body);
  const { error, message, code } = body as { error?: unknown; message?: unknown; code?: unknown };
  const nested = (error as { message?: unknown } | null | undefined)?.message;
  const str = (value: unknown): value is string => typeof value === "string" && value !== "";
  if (str(error)) return error;
  if (typeof error === "object" && str(nested)) return nested;
  if (str(message)) return str(code) ? `${code}: ${message}` : message;
  return JSON.stringify(body);
}

function describeRequest(method: string, url: string): string {
  return method === "" ? url : `${method} ${url}`;
}

/**
 * Error for a response with a non-2xx status, carrying status, headers, parsed body and request id.
 *
 * @example
 * if (err instanceof ApiError && err.status === 404) return undefined;
 */
export class ApiError extends ApiClientError {
  /** HTTP status code of the response. */
  declare readonly status: number;
  /** Response headers (never the request's, so no credentials). */
  declare readonly headers: Headers;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  declare readonly body: unknown;
  /** Request id reported by the server (`x-request-id`, `request-id`, …), when present. */
  declare readonly requestId: string | undefined;
  /** HTTP method of the failed request. */
  declare readonly method: string;
  /** URL of the failed request, without any user-info credentials. */
  declare readonly url: string;
  /** How many attempts were made before giving up, the last one included. */
  declare readonly attempts: number;

  /**
   * Builds the error; `message` defaults to
   * `"<status> <text>: <server message> (<method> <url>)[, after N attempts][; <note>]"`.
   */
  constructor(init: ApiErrorInit, message?: string) {
    const url = redactUrl(init.url);
    const detail = serverMessage(init.body);
    const attempts = init.attempts ?? 1;
    super(
      (message ??
        `${describeStatus(init.status)}${detail === undefined ? "" : `: ${detail}`} (${describeRequest(init.method, url)})`) +
        attemptsSuffix(attempts) +
        (init.note === undefined ? "" : `; ${init.note}`),
    );
    // Assigned in the order the fields are declared (the order of the error's own properties).
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.requestId = REQUEST_ID_HEADERS.map((name) => init.headers.get(name)).find((v) => !!v) as
      string | undefined;
    this.method = init.method;
    this.url = url;
    this.attempts = attempts;
  }

  /** Creates the subclass that matches the status (see the status → class table), or a plain `ApiError`. */
  static from(init: ApiErrorInit): ApiError {
    const ErrorClass =
      STATUS_ERRORS[init.status] ?? (init.status >= 500 ? InternalServerError : ApiError);
    return new ErrorClass(init);
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      requestId: this.requestId,
      method: this.method,
      url: this.url,
      attempts: this.attempts,
    };
  }
}
brand(ApiError, "ApiError");

/** The server rejected the request as malformed (400). */
export class BadRequestError extends ApiError {}
brand(BadRequestError, "BadRequestError");

/** The credentials are missing or invalid (401). */
export class AuthenticationError extends ApiError {}
brand(AuthenticationError, "AuthenticationError");

/** The credentials are valid but not allowed to do this (403). */
export class PermissionDeniedError extends ApiError {}
brand(PermissionDeniedError, "PermissionDeniedError");

/** The resource does not exist (404). */
export class NotFoundError extends ApiError {}
brand(NotFoundError, "NotFoundError");

/** The request conflicts with the current state of the resource (409). */
export class ConflictError extends ApiError {}
brand(ConflictError, "ConflictError");

/** The request was well-formed but semantically invalid (422). */
export class UnprocessableEntityError extends ApiError {}
brand(UnprocessableEntityError, "UnprocessableEntityError");

/** Rate-limit counters read from the `RateLimit-*` and `Burst-RateLimit-*` response headers. */
export interface RateLimitInfo {
  /** `RateLimit-Limit`: requests allowed in the window. */
  limit?: number;
  /** `RateLimit-Remaining`: requests left in the window. */
  remaining?: number;
  /** `RateLimit-Reset`: when the window resets, as sent by the server (Unix seconds or seconds from now). */
  reset?: number;
  /** `Burst-RateLimit-Limit`: requests allowed in the burst window. */
  burstLimit?: number;
  /** `Burst-RateLimit-Remaining`: requests left in the burst window. */
  burstRemaining?: number;
  /** `Burst-RateLimit-Reset`: when the burst window resets, as sent (Unix seconds or seconds from now). */
  burstReset?: number;
}

/**
 * The six counters, from the same bounded read as the rate-limit gate and {@link RateLimitError}'s
 * `scope`, `limit`, `remaining` and `resetAt`: a window with a value outside its bounds states none.
 */
function rateLimitInfo(headers: Headers, now: number): RateLimitInfo | undefined {
  let info: RateLimitInfo | undefined;
  for (const scope of ["daily", "burst"] as const) {
    const window = readWindow(headers, scope, now);
    if (window === undefined) continue;
    const fields = { limit: window.limit, remaining: window.remaining, reset: window.reset };
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const key = scope === "burst" ? `burst${name[0]!.toUpperCase()}${name.slice(1)}` : name;
      (info ??= {})[key as keyof RateLimitInfo] = value;
    }
  }
  return info;
}

/**
 * Too many requests (429): which budget refused (`scope`), its `limit`, `remaining` and `resetAt` from
 * the `Burst-RateLimit-*` / `RateLimit-*` headers, and the server's requested wait; the message says
 * when to try again.
 *
 * @example
 * if (err instanceof RateLimitError && err.scope === "daily") console.log("quota back at", err.resetAt);
 */
export class RateLimitError extends ApiError {
  /** How long the server asked to wait (`retry-after-ms` or `Retry-After`), in milliseconds. */
  declare readonly retryAfterMs: number | undefined;
  /** Rate-limit counters from the `RateLimit-*` / `Burst-RateLimit-*` headers, when present. */
  declare readonly rateLimit: RateLimitInfo | undefined;
  /**
   * The budget that refused: `"daily"` when `RateLimit-Remaining` is 0 (the daily quota is used up),
   * else `"burst"` (the per-second limit).
   */
  declare readonly scope: RateLimitScope;
  /** Requests allowed in the refusing window, when the server says. */
  declare readonly limit: number | undefined;
  /** Requests left in the refusing window, when the server says. */
  declare readonly remaining: number | undefined;
  /** When the refusing window resets (its `Reset` header, Unix seconds), when the server says. */
  declare readonly resetAt: Date | undefined;

  /**
   * Builds the error and parses the retry and rate-limit headers (once: the message and the fields
   * agree); what they say about the budget and when to try again goes before any note in the message.
   */
  constructor(init: ApiErrorInit, message?: string) {
    const { headers, note } = init;
    const now = Date.now();
    const window = refusingWindow(headers, now);
    const { limit, resetAt } = window;
    const retryAfterMs = parseRetryAfterMs(headers);
    // The server's own text may already state the limit (the message is read whole): say it once.
    const said = serverMessage(init.body)?.split(/\D+/).includes(String(limit));
    const of = limit === undefined || said ? "" : ` of ${limit} requests`;
    const parts = [
      limit === undefined && resetAt === undefined
        ? undefined
        : window.scope === "daily"
          ? `daily quota${of} used up`
          : `burst limit${of} reached`,
      resetAt !== undefined
        ? `try again after ${isoDate(resetAt)}`
        : retryAfterMs !== undefined && note === undefined
          ? `try again in ${Math.round(retryAfterMs / 100) / 10} s`
          : undefined,
      note,
    ].filter((part) => part !== undefined);
    super({ ...init, note: parts.length === 0 ? undefined : parts.join("; ") }, message);
    this.retryAfterMs = retryAfterMs;
    this.rateLimit = rateLimitInfo(headers, now);
    this.scope = window.scope;
    this.limit = limit;
    this.remaining = window.remaining;
    this.resetAt = resetAt === undefined ? undefined : new Date(resetAt);
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      retryAfterMs: this.retryAfterMs,
      rateLimit: this.rateLimit,
      scope: this.scope,
      limit: this.limit,
      remaining: this.remaining,
      resetAt: this.resetAt?.toISOString(),
    };
  }
}
brand(RateLimitError, "RateLimitError");

/** The server failed (any 5xx status). */
export class InternalServerError extends ApiError {}
brand(InternalServerError, "InternalServerError");

/** The one status → class table used by {@link ApiError.from}; other 5xx map to `InternalServerError`. */
const STATUS_ERRORS: Readonly<Record<number, new (init: ApiErrorInit) => ApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** A 2xx response whose body is not what the API promises (for example not JSON); names the problem. */
export class InvalidResponseError extends ApiError {
  /** Builds the error; `reason` says what is wrong, and a short excerpt of the body is appended. */
  constructor(init: ApiErrorInit & { reason: string }) {
    const text = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    const excerpt = text === undefined || text === "" ? "" : `: ${truncate(text, 200)}`;
    super(
      init,
      `${describeStatus(init.status)}: ${init.reason}${excerpt} (${describeRequest(init.method, redactUrl(init.url))})`,
    );
  }
}
brand(InvalidResponseError, "InvalidResponseError");

/** Where a connection-level failure happened, and what caused it. */
export interface ConnectionErrorInit {
  /** The underlying error (for example a `TypeError: fetch failed` with an `ECONNREFUSED` cause). */
  cause?: unknown;
  /** HTTP method of the request. */
  method?: string | undefined;
  /** URL of the request. */
  url?: string | undefined;
  /** How many attempts were made, the last one included. @default 1 */
  attempts?: number | undefined;
}

/** The request failed before a complete response arrived (refused, reset, DNS failure, …). */
export class ConnectionError extends ApiClientError {
  /** HTTP method of the failed request, when known. */
  declare readonly method: string | undefined;
  /** URL of the failed request (without user-info credentials), when known. */
  declare readonly url: string | undefined;
  /** How many attempts were made before giving up, the last one included. */
  declare readonly attempts: number;

  /** Builds the error (`", after N attempts"` is appended when N > 1); the cause is kept on `error.cause`. */
  constructor(message: string, init: ConnectionErrorInit = {}) {
    const attempts = init.attempts ?? 1;
    super(message + attemptsSuffix(attempts), "cause" in init ? { cause: init.cause } : undefined);
    this.method = init.method;
    this.url = init.url === undefined ? undefined : redactUrl(init.url);
    this.attempts = attempts;
  }

  override toJSON(): Record<string, unknown> {
    const cause = this.cause instanceof Error ? causeSummary(this.cause) : undefined;
    return {
      ...super.toJSON(),
      method: this.method,
      url: this.url,
      attempts: this.attempts,
      cause,
    };
  }
}
brand(ConnectionError, "ConnectionError");

/** `" (<method> <url>)"` when both are known, else `""`. */
function where(init: ConnectionErrorInit): string {
  return init.method === undefined || init.url === undefined
    ? ""
    : ` (${describeRequest(init.method, redactUrl(init.url))})`;
}

function causeSummary(error: Error): string {
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message} (${code})` : error.message;
}

/** One attempt took longer than `timeoutMs` (a {@link ConnectionError}, so it is caught alongside them). */
export class TimeoutError extends ConnectionError {
  /** The per-attempt limit that was exceeded, in milliseconds. */
  declare readonly timeoutMs: number;

  /** Builds the error for a request that exceeded `timeoutMs`. */
  constructor(init: ConnectionErrorInit & { timeoutMs: number }) {
    super(`Request timed out after ${init.timeoutMs} ms${where(init)}`, init);
    this.timeoutMs = init.timeoutMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs };
  }
}
brand(TimeoutError, "TimeoutError");

/**
 * The call ran out of its `deadlineMs`, the bound on the whole call (attempts and waits); thrown when
 * the time is up during an attempt, or before a wait (for a retry or for the rate limit) that would
 * end after the deadline. A {@link TimeoutError}, so it is caught alongside them; `timeoutMs` is the deadline.
 *
 * @example
 * try { await logs.list({}, { deadlineMs: 2_000 }) } catch (err) { if (err instanceof DeadlineExceededError) … }
 */
export class DeadlineExceededError extends TimeoutError {
  /** The bound on the whole call that was reached, in milliseconds. */
  declare readonly deadlineMs: number;

  /**
   * Builds the error; `reason` says what the deadline stopped (an attempt in flight, or a wait);
   * `refused` when the call ends before its deadline because a wait would end after it.
   */
  constructor(
    init: ConnectionErrorInit & {
      deadlineMs: number;
      reason?: string | undefined;
      refused?: boolean | undefined;
    },
  ) {
    super({ ...init, timeoutMs: init.deadlineMs });
    this.message =
      `Call ${init.refused ? "refused before" : "exceeded"} its deadline of ${init.deadlineMs} ms (deadlineMs)` +
      (init.reason === undefined ? "" : `: ${init.reason}`) +
      where(init) +
      attemptsSuffix(init.attempts ?? 1);
    this.deadlineMs = init.deadlineMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), deadlineMs: this.deadlineMs };
  }
}
brand(DeadlineExceededError, "DeadlineExceededError");

/**
 * Bad input caught before any request is sent; names the field and the rule it broke.
 *
 * @example
 * new ValidationError("count", "must be an integer from 1 to 1000").message; // "count: must be an integer from 1 to 1000"
 */
export class ValidationError extends ApiClientError {
  /** The offending option or parameter, e.g. `count` or `headers.x-trace`. */
  declare readonly field: string;
  /** The rule it broke, e.g. `must be an integer from 1 to 1000`. */
  declare readonly rule: string;

  /** Builds the error with message `"<field>: <rule>"`. */
  constructor(field: string, rule: string) {
    super(`${field}: ${rule}`);
    this.field = field;
    this.rule = rule;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), field: this.field, rule: this.rule };
  }
}
brand(ValidationError, "ValidationError");

/**
 * The call was aborted through its `signal` (before sending, while waiting for the response or body,
 * or during a retry wait); the signal's reason is kept as `cause`.
 *
 * @example
 * try { await logs.list({}, { signal: AbortSignal.timeout(1000) }) } catch (err) { if (err instanceof AbortError) … }
 */
export class AbortError extends ApiClientError {
  /** Builds the error from the signal's reason. */
  constructor(reason: unknown) {
    const detail = reason instanceof Error && reason.message !== "" ? `: ${reason.message}` : "";
    super(`Request aborted${detail}`, { cause: reason });
  }
}
brand(AbortError, "AbortError");
