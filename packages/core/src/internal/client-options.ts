import { ValidationError } from "../errors.js";
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type Logger,
  type RateLimiter,
} from "../options.js";
import { fromEnvironment } from "./environment.js";
import { createRateLimiter } from "./rate-limit.js";

/** The largest delay a timer accepts (2^31 − 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Per-call limits: the call's own, else the client's. */
export interface Limits {
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxResponseBytes: number;
  readonly deadlineMs: number;
}

/** The client options after validation, with defaults applied. */
export interface ResolvedOptions extends Limits {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly headers: Headers;
  readonly logger: Logger | undefined;
  readonly rateLimiter: RateLimiter;
}

function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** `field` names where the value came from: the `baseUrl` option or the environment variable. */
function validateBaseUrl(raw: unknown, allowInsecureHttp: boolean, field: string): string {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new ValidationError(field, "must be an absolute URL");
  }
  if (url.username !== "" || url.password !== "") {
    throw new ValidationError(field, "must not contain credentials");
  }
  if (url.search !== "" || url.hash !== "") {
    throw new ValidationError(field, "must not contain a query or fragment");
  }
  if (url.protocol === "http:") {
    if (!allowInsecureHttp && !isLoopbackHost(url.hostname)) {
      throw new ValidationError(
        field,
        "must use https (http is only allowed for loopback hosts, or with allowInsecureHttp: true)",
      );
    }
  } else if (url.protocol !== "https:") {
    throw new ValidationError(field, "must use https");
  }
  // The specs' paths carry `/v2`: a base URL copied with it (`https://api.upstash.com/v2`) would send
  // `/v2/v2/...`, so a trailing `/v2` is dropped.
  return url.href.replace(/\/+$/, "").replace(/\/v2$/, "");
}

function validateMaxRetries(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 100) {
    throw new ValidationError("maxRetries", "must be an integer from 0 to 100");
  }
  return value;
}

/** `timeoutMs` or `deadlineMs`: milliseconds a timer can wait. */
function validateMs(field: "timeoutMs" | "deadlineMs", value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new ValidationError(
      field,
      `must be a number of milliseconds > 0 and <= ${MAX_TIMER_MS} (about 24.8 days)`,
    );
  }
  return value;
}

function validateRateLimiter(value: unknown): RateLimiter {
  if (value === undefined) return createRateLimiter();
  const limiter = value as Partial<RateLimiter> | null;
  if (typeof limiter?.acquire !== "function" || typeof limiter.report !== "function") {
    throw new ValidationError("rateLimiter", "must have acquire() and report() methods");
  }
  return value as RateLimiter;
}

function validateMaxResponseBytes(value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new ValidationError("maxResponseBytes", "must be an integer number of bytes >= 1");
  }
  return value;
}

/** A header value as fetch will send it: checked now, so a bad one fails at construction. */
function checkHeaderValue(field: string, value: string): void {
  try {
    new Headers([["x-check", value]]);
  } catch {
    throw new ValidationError(
      field,
      "must be a valid header value (no CR, LF, NUL or characters above U+00FF)",
    );
  }
}

function validateHeaders(init: unknown, userAgent: string): Headers {
  let headers: Headers;
  try {
    headers = new Headers((init ?? undefined) as HeadersInit | undefined);
  } catch {
    throw new ValidationError(
      "headers",
      "must be a HeadersInit (object, Headers or name/value pairs) of valid header names and values (no CR, LF, NUL or characters above U+00FF)",
    );
  }
  headers.delete("authorization");
  if (!headers.has("user-agent")) headers.set("user-agent", userAgent);
  return headers;
}

/**
 * Validates the client options (`ValidationError` naming the option) and applies the defaults.
 * `authorization` is checked as a header value here, so a bad token fails at construction.
 */
export function validateClientOptions(config: {
  readonly options: ClientOptions;
  readonly defaultBaseUrl: string;
  readonly baseUrlVariable?: string;
  readonly authorization: string;
  readonly userAgent: string;
}): ResolvedOptions {
  const options = config.options;
  checkHeaderValue("authorization", config.authorization);
  const logger = options.logger;
  if (logger !== undefined && typeof logger !== "function") {
    throw new ValidationError("logger", "must be a function");
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") {
    throw new ValidationError("fetch", "must be a fetch function (none is available globally)");
  }
  // The base URL: the option, else the environment variable (where `process.env` exists), else the default.
  const variable = config.baseUrlVariable;
  const fromEnv =
    options.baseUrl === undefined && variable !== undefined ? fromEnvironment(variable) : undefined;
  return {
    baseUrl: validateBaseUrl(
      options.baseUrl ?? fromEnv ?? config.defaultBaseUrl,
      options.allowInsecureHttp === true,
      fromEnv === undefined ? "baseUrl" : (variable as string),
    ),
    fetch: fetchImpl,
    headers: validateHeaders(options.headers, config.userAgent),
    logger,
    timeoutMs: validateMs("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxRetries: validateMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES),
    maxResponseBytes: validateMaxResponseBytes(
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    ),
    deadlineMs: validateMs("deadlineMs", options.deadlineMs ?? DEFAULT_DEADLINE_MS),
    rateLimiter: validateRateLimiter(options.rateLimiter),
  };
}

/** The limits of one call: those openapi-fetch copied onto its request from the call's options, else the client's. */
export function validateLimits(
  call: { timeoutMs?: unknown; maxRetries?: unknown; deadlineMs?: unknown },
  client: Limits,
): Limits {
  if (
    call.timeoutMs === undefined &&
    call.maxRetries === undefined &&
    call.deadlineMs === undefined
  )
    return client;
  return {
    deadlineMs:
      call.deadlineMs === undefined ? client.deadlineMs : validateMs("deadlineMs", call.deadlineMs),
    timeoutMs:
      call.timeoutMs === undefined ? client.timeoutMs : validateMs("timeoutMs", call.timeoutMs),
    maxRetries:
      call.maxRetries === undefined ? client.maxRetries : validateMaxRetries(call.maxRetries),
    maxResponseBytes: client.maxResponseBytes,
  };
}
