import {
  ApiError,
  ConnectionError,
  TimeoutError,
  ValidationError,
  type ApiClientError,
} from "./errors.js";
import { redactUrl } from "./internal/redact.js";
import { setResponseMeta, type ResponseMeta } from "./internal/response-meta.js";
import { sleep } from "./internal/sleep.js";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type LogEvent,
  type Logger,
  type RequestOptions,
} from "./options.js";
import { isIdempotentMethod, retryDecision } from "./retry-policy.js";

/** What a client passes to {@link createTransport}. */
export interface TransportConfig {
  /** The user's client options. */
  options: ClientOptions;
  /** Base URL used when `options.baseUrl` is not set, e.g. `https://qstash.upstash.io`. */
  defaultBaseUrl: string;
  /** Full `Authorization` header value, e.g. `Bearer <token>`; kept only in a closure, never exposed. */
  authorization: string;
  /** `User-Agent` value naming the package and version, e.g. `@api-clients/logs-client/0.1.0`. */
  userAgent: string;
}

/** How an operation may be retried; declared once per operation. */
export interface OperationPolicy {
  /** Whether repeating the operation is safe (then 408, 5xx, timeouts and connection errors are retried). */
  idempotent: boolean;
}

/** Non-secret summary of a transport, as shown by `JSON.stringify` and `util.inspect`. */
export interface TransportSummary {
  baseUrl: string;
  maxRetries: number;
  timeoutMs: number;
}

/**
 * A configured HTTP transport: fetch functions that add auth, timeouts, retries and typed errors,
 * ready to pass to openapi-fetch.
 */
export interface Transport {
  /** Validated base URL without a trailing slash. */
  readonly baseUrl: string;
  /** Client-level retries (per-call options override it). */
  readonly maxRetries: number;
  /** Client-level per-attempt limit, in milliseconds (per-call options override it). */
  readonly timeoutMs: number;
  /** Fetch-compatible function with the default policy (GET, HEAD, OPTIONS, DELETE, PUT idempotent). */
  readonly fetch: typeof fetch;
  /**
   * Fetch-compatible function for one call, with its per-call options and the operation's policy.
   * The call is aborted by `call.signal` only (a signal on the request itself is not watched).
   *
   * @example
   * raw.GET("/v2/logs", { params, parseAs: "text", fetch: transport.fetchFor(opts, { idempotent: true }) });
   */
  fetchFor(call: RequestOptions | undefined, policy: OperationPolicy): typeof fetch;
  /** The non-secret summary `{ baseUrl, maxRetries, timeoutMs }`. */
  toJSON(): TransportSummary;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UNSAFE_HEADER_VALUE = /[\r\n\0]/;
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

function validateBaseUrl(raw: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError("baseUrl", "must be an absolute URL");
  }
  if (url.username !== "" || url.password !== "") {
    throw new ValidationError("baseUrl", "must not contain credentials");
  }
  if (url.search !== "" || url.hash !== "") {
    throw new ValidationError("baseUrl", "must not contain a query or fragment");
  }
  if (url.protocol === "http:") {
    if (!allowInsecureHttp && !isLoopbackHost(url.hostname)) {
      throw new ValidationError(
        "baseUrl",
        "must use https (http is only allowed for loopback hosts, or with allowInsecureHttp: true)",
      );
    }
  } else if (url.protocol !== "https:") {
    throw new ValidationError("baseUrl", "must use https");
  }
  return url.href.replace(/\/+$/, "");
}

function validateMaxRetries(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ValidationError(field, "must be an integer >= 0");
  }
  return value;
}

function validateTimeoutMs(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ValidationError(field, "must be a number of milliseconds > 0");
  }
  return value;
}

function validateHeaders(
  headers: Record<string, string> | undefined,
): Array<readonly [string, string]> {
  const result: Array<readonly [string, string]> = [];
  if (headers === undefined) return result;
  if (typeof headers !== "object" || headers === null) {
    throw new ValidationError("headers", "must be an object of header names to string values");
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      throw new ValidationError(`headers.${name}`, "must be a valid header name");
    }
    if (typeof value !== "string") throw new ValidationError(`headers.${name}`, "must be a string");
    if (UNSAFE_HEADER_VALUE.test(value)) {
      throw new ValidationError(`headers.${name}`, "must not contain CR, LF or NUL characters");
    }
    result.push([name.toLowerCase(), value]);
  }
  return result;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== "" && cause.message !== error.message) {
    return `${error.message}: ${cause.message}`;
  }
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message}: ${code}` : error.message;
}

function emit(logger: Logger | undefined, event: LogEvent): void {
  if (logger === undefined) return;
  try {
    logger(event);
  } catch {
    // A failing logger must never break a request.
  }
}

/**
 * One attempt's abort wiring: a timer that aborts after the per-attempt limit, and a listener that
 * forwards the user's abort. (A plain listener: `AbortSignal.any` costs ~10 µs per call.)
 */
class Attempt {
  readonly controller = new AbortController();
  timedOut = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onUserAbort: (() => void) | undefined;

  constructor(
    readonly userSignal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(Attempt.onTimeout, timeoutMs, this);
    // An unread body must not keep the process alive; open sockets already do while in flight.
    (this.timer as { unref?: () => void }).unref?.();
    if (userSignal !== undefined) {
      const controller = this.controller;
      this.onUserAbort = () => controller.abort(userSignal.reason);
      userSignal.addEventListener("abort", this.onUserAbort);
    }
  }

  private static onTimeout(this: void, attempt: Attempt): void {
    attempt.timedOut = true;
    attempt.controller.abort();
    attempt.detach();
  }

  /** Stops the timer and the user-abort forwarding. */
  finish(): void {
    clearTimeout(this.timer);
    this.detach();
  }

  private detach(): void {
    if (this.onUserAbort !== undefined) {
      this.userSignal?.removeEventListener("abort", this.onUserAbort);
    }
  }

  /** Turns a failure of this attempt into the error to report (the user's abort reason is rethrown). */
  failure(
    error: unknown,
    method: string,
    url: string,
    timeoutMs: number,
    reading: boolean,
  ): ApiClientError {
    this.userSignal?.throwIfAborted();
    if (this.timedOut) return new TimeoutError({ timeoutMs, method, url, cause: error });
    const during = reading ? "Connection failed while reading the response" : "Connection failed";
    return new ConnectionError(`${during} (${method} ${url}): ${describeCause(error)}`, {
      cause: error,
      method,
      url,
    });
  }
}

/** State kept on a 2xx response whose body is still unread: the attempt's timer stays armed until it is read. */
interface PendingBody extends ResponseMeta {
  readonly attempt: Attempt;
  readonly timeoutMs: number;
}

const PENDING = Symbol("api-clients.pending-body");
type BodyMethod = "arrayBuffer" | "blob" | "bytes" | "formData" | "json" | "text";
const BODY_METHODS: readonly BodyMethod[] = (
  ["arrayBuffer", "blob", "bytes", "formData", "json", "text"] as const
).filter((name) => typeof (Response.prototype as Partial<Response>)[name] === "function");

async function settleBody<T>(response: Response, read: Promise<T>): Promise<T> {
  const state = (response as unknown as Record<symbol, PendingBody>)[PENDING] as PendingBody;
  try {
    return await read;
  } catch (error) {
    throw state.attempt.failure(error, state.method, state.url, state.timeoutMs, true);
  } finally {
    state.attempt.finish();
  }
}

/** Body readers that keep the timeout until the body is read and turn network failures into typed errors. */
const GUARDED_READERS = BODY_METHODS.map((name) => {
  const original = Response.prototype[name] as (this: Response) => Promise<unknown>;
  const guarded = function (this: Response): Promise<unknown> {
    return settleBody(this, original.call(this));
  };
  return [name, guarded] as const;
});

function guardBody(response: Response, state: PendingBody): void {
  const target = response as unknown as Record<string | symbol, unknown>;
  target[PENDING] = state;
  for (const [name, reader] of GUARDED_READERS) target[name] = reader;
}

function parseErrorBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The body of a request that has one, read into memory (a stream can be sent only once). */
async function bufferBody(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
): Promise<BodyInit> {
  const body = init?.body;
  if (body === undefined || body === null) return await (input as Request).arrayBuffer();
  if (body instanceof ReadableStream) return await new Response(body).arrayBuffer();
  return body;
}

/**
 * Creates the transport shared by a client's operations; validates the options first (`ValidationError`).
 *
 * @example
 * const transport = createTransport({ options, defaultBaseUrl: "https://qstash.upstash.io", authorization: `Bearer ${token}`, userAgent: "@api-clients/logs-client/0.1.0" });
 * const raw = createClient<paths>({ baseUrl: transport.baseUrl, fetch: transport.fetch });
 */
export function createTransport(config: TransportConfig): Transport {
  const { options } = config;
  const baseUrl = validateBaseUrl(
    options.baseUrl ?? config.defaultBaseUrl,
    options.allowInsecureHttp === true,
  );
  const maxRetries = validateMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES, "maxRetries");
  const timeoutMs = validateTimeoutMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeoutMs");
  if (typeof config.authorization !== "string" || UNSAFE_HEADER_VALUE.test(config.authorization)) {
    throw new ValidationError("authorization", "must be a string without CR, LF or NUL characters");
  }
  if (UNSAFE_HEADER_VALUE.test(config.userAgent)) {
    throw new ValidationError("userAgent", "must not contain CR, LF or NUL characters");
  }
  const merged = new Map<string, string>([["user-agent", config.userAgent]]);
  for (const [name, value] of validateHeaders(options.headers)) merged.set(name, value);
  merged.delete("authorization");
  const defaultHeaders = [...merged];
  const authorization = config.authorization;
  const baseFetch = options.fetch ?? globalThis.fetch;
  const logger = options.logger;

  async function send(
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    call: RequestOptions | undefined,
    perCall: boolean,
    idempotentPolicy: boolean | undefined,
    callMaxRetries: number,
    callTimeoutMs: number,
  ): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const idempotent = idempotentPolicy ?? isIdempotentMethod(method);
    // A client method passes its caller's signal in `call`; only the raw client's callers put theirs
    // on the request (and every Request has a signal, so listening to it always would cost each call).
    const signal = perCall ? call?.signal : (init?.signal ?? request?.signal ?? undefined);
    const safeUrl = redactUrl(url);

    const headers = new Headers(init?.headers ?? request?.headers);
    for (const [name, value] of defaultHeaders) if (!headers.has(name)) headers.set(name, value);
    headers.set("authorization", authorization);
    const attemptInit: RequestInit =
      init === undefined ? { method, headers } : { ...init, method, headers };
    // Read once so that every attempt can resend it (no await, so no extra tick, without a body).
    const hasBody = (init?.body ?? request?.body ?? null) !== null;
    if (hasBody) attemptInit.body = await bufferBody(input, init);

    /** Reports the retry, then sleeps until it is due (rejecting at once if the caller aborts). */
    const waitToRetry = (attempt: number, decision: { delayMs: number; reason: string }) => {
      const { delayMs, reason } = decision;
      emit(logger, { type: "retry", method, url: safeUrl, attempt, delayMs, reason });
      return sleep(delayMs, signal);
    };

    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      if (logger !== undefined) emit(logger, { type: "request", method, url: safeUrl, attempt });
      const current = new Attempt(signal, callTimeoutMs);
      attemptInit.signal = current.controller.signal;
      const started = performance.now();
      let failure: ApiClientError | undefined;
      let response: Response | undefined;
      try {
        response = await baseFetch(url, attemptInit);
      } catch (error) {
        current.finish();
        failure = current.failure(error, method, safeUrl, callTimeoutMs, false);
      }

      if (response !== undefined) {
        const { status } = response;
        if (logger !== undefined) {
          const durationMs = Math.round(performance.now() - started);
          emit(logger, { type: "response", method, url: safeUrl, status, attempt, durationMs });
        }
        if (response.ok) {
          if (response.body === null || status === 204 || status === 205 || method === "HEAD") {
            current.finish();
          } else {
            guardBody(response, {
              method,
              url: safeUrl,
              attempt: current,
              timeoutMs: callTimeoutMs,
            });
          }
          setResponseMeta(response, { method, url: safeUrl });
          return response;
        }
        const decision = retryDecision({
          attempt,
          maxRetries: callMaxRetries,
          idempotent,
          status,
          headers: response.headers,
        });
        if (decision.retry) {
          current.finish();
          response.body?.cancel().catch(() => undefined);
          await waitToRetry(attempt, decision);
          continue;
        }
        let text: string | undefined;
        try {
          text = await response.text();
        } catch (error) {
          failure = current.failure(error, method, safeUrl, callTimeoutMs, true);
        } finally {
          current.finish();
        }
        if (text !== undefined) {
          const error = ApiError.from({
            status,
            headers: response.headers,
            body: parseErrorBody(text),
            method,
            url: safeUrl,
          });
          emit(logger, { type: "error", method, url: safeUrl, attempt, error: error.message });
          throw error;
        }
      }
      if (failure === undefined) throw new Error("unreachable: attempt ended without outcome");

      const decision = retryDecision({
        attempt,
        maxRetries: callMaxRetries,
        idempotent,
        error: failure,
      });
      if (!decision.retry) {
        emit(logger, { type: "error", method, url: safeUrl, attempt, error: failure.message });
        throw failure;
      }
      await waitToRetry(attempt, decision);
    }
  }

  function fetchFor(
    call: RequestOptions | undefined,
    policy: OperationPolicy | undefined,
  ): typeof fetch {
    const callMaxRetries =
      call?.maxRetries === undefined
        ? maxRetries
        : validateMaxRetries(call.maxRetries, "maxRetries");
    const callTimeoutMs =
      call?.timeoutMs === undefined ? timeoutMs : validateTimeoutMs(call.timeoutMs, "timeoutMs");
    const idempotent = policy?.idempotent;
    const perCall = policy !== undefined;
    return (input, init) =>
      send(input, init, call, perCall, idempotent, callMaxRetries, callTimeoutMs);
  }

  const summary = (): TransportSummary => ({ baseUrl, maxRetries, timeoutMs });
  const transport: Transport = {
    baseUrl,
    maxRetries,
    timeoutMs,
    fetch: fetchFor(undefined, undefined),
    fetchFor,
    toJSON: summary,
  };
  Object.defineProperty(transport, INSPECT, {
    value: (
      _depth: number,
      inspectOptions: unknown,
      inspect?: (value: unknown, options: unknown) => string,
    ) =>
      `Transport ${inspect === undefined ? JSON.stringify(summary()) : inspect(summary(), inspectOptions)}`,
  });
  return Object.freeze(transport);
}
