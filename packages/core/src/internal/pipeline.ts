// The one request path of every client. Each API gets one openapi-fetch client; its own extension
// points carry the cross-cutting behaviour:
//   middleware `onRequest`  finds the operation from `schemaPath`: checks path and query parameters
//                           against the spec's rules, and picks the operation's retry policy;
//   the `fetch` option      runs the attempts: build → attempt (send, read the body within the
//                           timeout) → decide → wait → retry, and hands openapi-fetch a complete
//                           response.
// `raw` is that openapi-fetch client; the ergonomic methods call it through `call()` and turn its
// `{ error, response }` into the typed error the attempt loop already built.
import createClient, {
  createQuerySerializer,
  defaultPathSerializer,
  type Client,
  type Middleware,
} from "openapi-fetch";
import {
  AbortError,
  ApiError,
  ConnectionError,
  InvalidResponseError,
  TimeoutError,
  ValidationError,
  ApiClientError,
} from "../errors.js";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type RequestOptions,
} from "../options.js";
import { BufferedResponse, invalidResponse, type Exchange } from "./buffered-response.js";
import { redactData, redactHeaders, redactUrl, secretRedactor, TOO_DEEP_NOTE } from "./redact.js";
import { watchCall, type Watch } from "./tracing.js";
import {
  isConnectionNotEstablished,
  isIdempotentMethod,
  retryDecision,
  type RetryDecision,
} from "./retry-policy.js";
import { checkParams, checkValue, requireWellFormed, type OperationSpec } from "./schema.js";
import { sleep } from "./sleep.js";
import { validateClientOptions, validateLimits, type Limits } from "./client-options.js";
import { Deadline } from "./deadline.js";
import { createRateLimitGate } from "./rate-limit-gate.js";

/** What a client passes to {@link createApi}. */
export interface ApiConfig {
  /** Which API, as tracing names it: `"logs"` or `"management"`. */
  readonly api: string;
  /** The user's client options (validated here; `ValidationError` when wrong). */
  readonly options: ClientOptions;
  /** Base URL used when `options.baseUrl` is not set. */
  readonly defaultBaseUrl: string;
  /** Full `Authorization` value; kept in a closure, set on each attempt, never exposed. */
  readonly authorization: string;
  /** Every secret the client holds (token, key, …): redacted from any error text a server echoes. */
  readonly secrets: readonly string[];
  /** `User-Agent` value naming the package and version. */
  readonly userAgent: string;
  /** The generated operation table. */
  readonly operations: Readonly<Record<string, OperationSpec>>;
  /** `"METHOD /path/{template}"` → operationId, as generated. */
  readonly routes: Readonly<Record<string, string>>;
}

/** The path parameters, query and JSON body of one call. */
export interface CallInput {
  readonly path?: object | undefined;
  readonly query?: object | undefined;
  readonly body?: unknown;
}

/** One API's request path: the openapi-fetch client and the ergonomic call on top of it. */
export interface Api<Paths extends {}> {
  /** The openapi-fetch client (`{ data | error, response }`; throws only typed connection errors). */
  readonly raw: Client<Paths>;
  /** Validated base URL without a trailing slash. */
  readonly baseUrl: string;
  /**
   * Sends one operation and returns its parsed success body, checked against the success shape the
   * spec gives it (then passed through `read`, which may check more); any failure throws the typed error.
   */
  call<T = unknown>(
    id: string,
    input: CallInput,
    options?: RequestOptions,
    read?: (data: unknown, response: Response) => T,
  ): Promise<T>;
}

/** The per-call limits openapi-fetch copies onto its `Request` from the call's options. */
type CallRequest = Request & { timeoutMs?: unknown; maxRetries?: unknown; deadlineMs?: unknown };

/** What an ergonomic call hands its `send`: warnings to report, and where to leave the watch. */
interface Ergonomic {
  readonly warnings: readonly string[];
  watch?: Watch;
}

/**
 * Marks the error of a retried state-changing call whose earlier attempt had an unknown outcome
 * (timeout, reset connection, 5xx): `maybeApplied: true`, and a sentence in its message.
 */
function maybeApplied<E>(error: E, uncertain: boolean): E {
  if (uncertain && error instanceof ApiClientError) {
    error.maybeApplied = true;
    error.message += " The change may have been applied (an earlier attempt's outcome is unknown).";
  }
  return error;
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

/** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return text === "" ? undefined : { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Why a response from `fetch` is refused before it is read, if it is: not a WHATWG `Response` (a
 * node-fetch one has a Node stream for a body), or an https request redirected to http.
 */
function refused(response: Response, request: Request): string | { reason: string } | undefined {
  const { body, headers, status } = response as Partial<Response>;
  if (
    typeof status !== "number" ||
    typeof headers?.get !== "function" ||
    (body !== null && typeof body?.getReader !== "function")
  ) {
    return {
      reason:
        "the `fetch` option returned a non-standard Response (not a WHATWG one, as node-fetch's)",
    };
  }
  if (request.url.startsWith("https:") && response.url.startsWith("http:")) {
    return `Refused a redirect from https to http (${redactUrl(response.url)})`;
  }
  return undefined;
}

/** Whether fetch gave up on a redirect loop (undici: "redirect count exceeded"). */
function isRedirectLoop(error: unknown): boolean {
  return /redirect count/i.test(String((error as { cause?: unknown } | null)?.cause));
}

/** A body larger than the limit: never retried (the same request gets the same body). */
class BodyTooLarge extends Error {}

/** Reads the whole body, failing as soon as it grows past `limit` bytes. */
async function readBody(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    // Not read, so cancel it: otherwise the connection stays open, the server blocked on a full socket.
    response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(`${declared}`);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(`more than ${limit}`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Path and query serializers that report a string openapi-fetch cannot encode as a `ValidationError`. */
function checkedSerializer<Args extends [unknown, ...unknown[]]>(
  serialize: (...args: Args) => string,
  location: "path" | "query",
  params: (...args: Args) => unknown,
): (...args: Args) => string {
  return (...args) => {
    try {
      return serialize(...args);
    } catch (error) {
      if (!(error instanceof URIError)) throw error;
      const values = params(...args) as Record<string, unknown>;
      for (const [name, value] of Object.entries(values ?? {})) {
        for (const item of Array.isArray(value) ? value : [value]) {
          if (typeof item === "string") requireWellFormed(item, name);
        }
      }
      throw new ValidationError(location, "cannot be encoded into a URL");
    }
  };
}

/**
 * Creates one API's request path over one openapi-fetch client; validates the options first.
 *
 * @example
 * const api = createApi<paths>({ options, defaultBaseUrl, authorization, secrets: [token], userAgent, operations, routes });
 * const page = await api.call("listLogs", { query: { count: 10 } });
 */
export function createApi<Paths extends {}>(config: ApiConfig): Api<Paths> {
  const { operations, routes } = config;
  const options = validateClientOptions(config);
  const { baseUrl, logger } = options;
  const redact = secretRedactor([config.authorization, ...config.secrets]);
  const authorization = config.authorization;
  const baseFetch = options.fetch;
  const gate = createRateLimitGate(options.rateLimiter, baseUrl, authorization);
  /** The operation of each request in flight (found by the middleware from its `schemaPath`), and its id. */
  const operationOf = new WeakMap<
    Request,
    { operation: OperationSpec; operationId: string; callId: string }
  >();

  const middleware: Middleware = {
    onRequest({ request, schemaPath, params, id: callId }) {
      const operationId = routes[`${request.method} ${schemaPath}`];
      const operation = operationId === undefined ? undefined : operations[operationId];
      if (operation === undefined) return undefined;
      checkParams(operation.params, "path", params.path, "");
      checkParams(operation.params, "query", params.query, "");
      operationOf.set(request, { operation, operationId: operationId as string, callId });
      return undefined;
    },
  };

  /** A connection-level failure of an attempt, as the typed error to report (secrets redacted). */
  function attemptFailure(
    error: unknown,
    context: { method: string; url: string; timeoutMs: number; timedOut: boolean; attempt: number },
  ): ApiClientError {
    const { method, url, timeoutMs, attempt } = context;
    if (context.timedOut) {
      return new TimeoutError({ timeoutMs, method, url, cause: error, attempts: attempt });
    }
    const described = describeCause(error);
    const detail = redact(described);
    const cause = detail === described ? error : new Error(detail);
    return new ConnectionError(`Connection failed (${method} ${url}): ${detail}`, {
      cause,
      method,
      url,
      attempts: attempt,
    });
  }

  /**
   * The response as the caller gets it: the body read whole; for an error status, secrets redacted
   * from its headers and from its body as parsed data (so JSON escapes cannot hide an echo).
   */
  function finalResponse(
    response: Response,
    bytes: Uint8Array,
    exchange: Exchange,
    note: string | undefined,
  ): Response {
    if (response.ok) return new BufferedResponse(bytes, response, exchange);
    const raw = new TextDecoder().decode(bytes);
    const json = parseJson(raw);
    const body = redactData(json === undefined ? raw || undefined : json.value, redact);
    const tooDeep = json !== undefined && body === undefined;
    const redacted = JSON.stringify(body);
    // What `raw` callers read: the text as sent unless redaction changed the data.
    const text =
      json === undefined || tooDeep
        ? redact(raw)
        : redacted === JSON.stringify(json.value)
          ? raw
          : redacted;
    const headers = redactHeaders(response.headers, redact);
    const error = ApiError.from({
      status: response.status,
      headers,
      body,
      ...exchange,
      note: tooDeep ? (note === undefined ? TOO_DEEP_NOTE : `${note}; ${TOO_DEEP_NOTE}`) : note,
    });
    return new BufferedResponse(
      new TextEncoder().encode(text),
      response,
      { ...exchange, error },
      headers,
    );
  }

  /**
   * The error for a body over `maxResponseBytes` (not read, never retried): an error status keeps its
   * class (`NotFoundError`, …) with a note, a 2xx is an `InvalidResponseError`; headers redacted.
   */
  function tooLarge(
    response: Response,
    where: { method: string; url: string; attempts: number },
    limit: number,
  ): ApiError {
    const reason = `response body is larger than maxResponseBytes (${limit} bytes)`;
    const init = {
      status: response.status,
      headers: redactHeaders(response.headers, redact),
      body: undefined,
      ...where,
    };
    return response.ok
      ? new InvalidResponseError({ ...init, reason })
      : ApiError.from({ ...init, note: `${reason}, not read` });
  }

  /** The `fetch` openapi-fetch calls: every attempt of one request, until a final response or error. */
  async function send(input: Request, ergonomic?: Ergonomic): Promise<Response> {
    const request = input as CallRequest;
    const { method } = request;
    const found = operationOf.get(request);
    const operation = found?.operation;
    const watch = watchCall(
      {
        api: config.api,
        operationId: found?.operationId ?? "",
        method,
        path: operation?.path ?? "",
        url: request.url,
        callId: found?.callId ?? "",
      },
      logger,
    );
    try {
      for (const message of ergonomic?.warnings ?? []) watch.warn(message);
      const response = await attempts(request, operation, watch);
      // An ergonomic call ends when its result is read (`call()` finishes it); a raw one here.
      if (ergonomic !== undefined) ergonomic.watch = watch;
      else watch.finish(BufferedResponse.exchangeOf(response)?.error);
      return response;
    } catch (error) {
      watch.finish(error);
      throw error;
    }
  }

  /** Every attempt of one request: build → attempt → decide → wait → retry. */
  async function attempts(
    request: CallRequest,
    operation: OperationSpec | undefined,
    watch: Watch,
  ): Promise<Response> {
    const { method } = request;
    const url = redactUrl(request.url);
    const limits: Limits = validateLimits(request, options);
    const idempotent = operation?.idempotent ?? isIdempotentMethod(method);
    const userSignal = request.signal;
    request.headers.set("authorization", authorization);
    // [deadline] One bound on the whole call: attempts, retry waits and rate-limit waits.
    const deadline = new Deadline(limits.deadlineMs);
    const gated = { method, url, signal: userSignal, deadline, watch };
    // Whether an earlier attempt of a state-changing call may have been applied (timeout, reset, 5xx).
    let uncertain = false;
    const changesState = !/^(GET|HEAD|OPTIONS)$/.test(method);

    for (let attempt = 1; ; attempt++) {
      if (userSignal.aborted) throw new AbortError(userSignal.reason);
      // [rate limit] Wait until the budget the server reported has room for this attempt.
      const rateLimitWaitMs = await gate.pace(gated, attempt);
      const attemptMs = Math.min(limits.timeoutMs, deadline.remaining());
      if (attemptMs <= 0) {
        throw deadline.exceeded(
          { method, url, attempts: attempt - 1 },
          "no time left for an attempt",
        );
      }
      // Build: a request with a body is cloned while another attempt may need the body again.
      const outgoing =
        request.body !== null && attempt <= limits.maxRetries ? request.clone() : request;
      watch.attempt(attempt, outgoing.headers, rateLimitWaitMs);
      // Attempt: one timer covers the response and its whole body; the user's abort is forwarded.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, attemptMs);
      const forwardAbort = () => controller.abort(userSignal.reason);
      userSignal.addEventListener("abort", forwardAbort);
      let decision: RetryDecision;
      let response: Response | undefined;
      try {
        response = await baseFetch(outgoing, { signal: controller.signal });
        const refusal = refused(response, request);
        if (refusal !== undefined) {
          const { status } = response;
          // A node-fetch body is a Node stream: destroy it, so its connection is released.
          (response.body as { destroy?: () => void } | null)?.destroy?.();
          response.body?.cancel?.().catch(() => undefined);
          response = undefined;
          throw typeof refusal === "string"
            ? new ConnectionError(`${refusal} (${method} ${url})`, {
                method,
                url,
                attempts: attempt,
              })
            : new InvalidResponseError({
                status: typeof status === "number" ? status : 0,
                headers: new Headers(),
                body: undefined,
                method,
                url,
                attempts: attempt,
                reason: refusal.reason,
              });
        }
        watch.response(response.status);
        // [rate limit] Learn the budget the answer states.
        await gate.report(gated, response);
        // Decide on the status alone: a response to retry is not read.
        decision = response.ok
          ? { retry: false, reason: "ok" }
          : deadline.bound(
              retryDecision({
                attempt,
                maxRetries: limits.maxRetries,
                idempotent,
                status: response.status,
                headers: response.headers,
              }),
            );
        if (decision.retry) {
          response.body?.cancel().catch(() => undefined);
        } else {
          const read = await readBody(response, limits.maxResponseBytes);
          // Every accepted form of an acknowledgement ("OK" as JSON or text, or empty) reads as "OK".
          const bytes =
            response.ok && operation?.success === "acknowledgement" ? acknowledged(read) : read;
          const note = "note" in decision ? decision.note : undefined;
          const exchange = { method, url, attempts: attempt, redact };
          const final = finalResponse(response, bytes, exchange, note);
          const error = maybeApplied(BufferedResponse.exchangeOf(final)?.error, uncertain);
          watch.settle({ status: response.status, bytes: read.byteLength, error });
          return final;
        }
        uncertain ||= changesState && response.status >= 500;
      } catch (error) {
        const failure = userSignal.aborted
          ? new AbortError(userSignal.reason)
          : error instanceof ApiClientError
            ? error
            : error instanceof BodyTooLarge && response !== undefined
              ? tooLarge(response, { method, url, attempts: attempt }, limits.maxResponseBytes)
              : isRedirectLoop(error)
                ? new ConnectionError(
                    `Too many redirects (${method} ${url}): a redirect loop, not retried`,
                    { method, url, attempts: attempt, cause: error },
                  )
                : attemptFailure(error, {
                    method,
                    url,
                    timeoutMs: limits.timeoutMs,
                    timedOut,
                    attempt,
                  });
        const next: RetryDecision =
          failure instanceof ConnectionError && failure !== error && !isRedirectLoop(error)
            ? retryDecision({
                attempt,
                maxRetries: limits.maxRetries,
                idempotent,
                error: failure,
              })
            : { retry: false, reason: "final" };
        decision = deadline.bound(next);
        // [deadline] The attempt was cut short by the deadline, or its retry would pass it.
        const thrown =
          timedOut && attemptMs < limits.timeoutMs
            ? deadline.exceeded(
                { method, url, attempts: attempt, cause: error },
                "the attempt in flight was stopped",
              )
            : next.retry && !decision.retry
              ? deadline.exceeded(
                  { method, url, attempts: attempt, cause: failure },
                  `${decision.note ?? ""} (last attempt: ${failure.message})`,
                )
              : failure;
        if (!decision.retry || thrown !== failure) {
          watch.settle({ status: response?.status, error: maybeApplied(thrown, uncertain) });
          throw thrown;
        }
        uncertain ||= changesState && !isConnectionNotEstablished(failure);
      } finally {
        clearTimeout(timer);
        userSignal.removeEventListener("abort", forwardAbort);
      }
      // Wait, then retry.
      watch.settle({
        status: response?.status,
        retryDelayMs: decision.delayMs,
        reason: decision.reason,
      });
      try {
        await sleep(decision.delayMs, userSignal);
      } catch {
        throw new AbortError(userSignal.reason);
      }
    }
  }

  const raw = createClient<Paths>({
    baseUrl,
    fetch: send,
    headers: options.headers,
    querySerializer: checkedSerializer(createQuerySerializer(), "query", (query) => query),
    pathSerializer: checkedSerializer(defaultPathSerializer, "path", (_path, params) => params),
  });
  raw.use(middleware);

  async function call<T>(
    id: string,
    input: CallInput,
    call?: RequestOptions,
    read?: (data: unknown, response: Response) => T,
  ): Promise<T> {
    const operation = operations[id] as OperationSpec;
    const warnings = operation.body === undefined ? [] : checkBody(operation, input.body);
    const request = raw.request as unknown as (
      method: string,
      path: string,
      init: object,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    // This call's own `fetch`: the call is watched until its result is read here, not only sent.
    const ergonomic: Ergonomic = { warnings };
    try {
      const { data, response } = await request(operation.method, operation.path, {
        params: { path: input.path, query: input.query },
        body: input.body,
        parseAs: operation.success === "acknowledgement" ? "text" : "json",
        ...call,
        fetch: (request: Request) => send(request, ergonomic),
      });
      const result = readResult(operation, data, response, read);
      ergonomic.watch?.finish(undefined);
      return result;
    } catch (error) {
      ergonomic.watch?.finish(error);
      throw error;
    }
  }

  /** Checks a body against the spec; returns what to report about fields the spec does not list. */
  function checkBody(operation: OperationSpec, body: unknown): string[] {
    const rule = operation.body;
    if (rule === undefined) return [];
    if (body === undefined) {
      if (rule.required) throw new ValidationError("body", "is required");
      return [];
    }
    const unknown: string[] = [];
    checkValue(rule.schema, body, "body", unknown);
    return unknown.map((field) => `${field} is not in the spec; sent as given`);
  }

  return { raw, baseUrl, call };
}

/** The result of an ergonomic call: its typed error, or its success body checked and read. */
function readResult<T>(
  operation: OperationSpec,
  data: unknown,
  response: Response,
  read: ((data: unknown, response: Response) => T) | undefined,
): T {
  if (!response.ok) {
    const error = BufferedResponse.exchangeOf(response)?.error;
    if (error === undefined) throw new Error("unreachable: a failed response without its error");
    if (
      operation.alreadyApplied !== undefined &&
      error.message.includes(operation.alreadyApplied)
    ) {
      return undefined as T;
    }
    throw error;
  }
  const body = readSuccess(operation, data, response);
  return read === undefined ? (body as T) : read(body, response);
}

/** Checks a success body against the shape the spec promises; anything else is an `InvalidResponseError`. */
function readSuccess(operation: OperationSpec, data: unknown, response: Response): unknown {
  if (operation.success === "acknowledgement") {
    // The pipeline turned plain-text `OK` and the empty body into the JSON string "OK"; the spec types
    // the acknowledgement as a string (the service sends "OK" today), so any JSON string is one.
    try {
      if (typeof JSON.parse(data as string) === "string") return undefined;
    } catch {
      // not JSON: not an acknowledgement
    }
    throw invalidResponse(response, 'expected the acknowledgement "OK"', data);
  }
  if (data === undefined) throw invalidResponse(response, "response body is empty");
  const isArray = Array.isArray(data);
  const ok =
    operation.success === "array" ? isArray : typeof data === "object" && data !== null && !isArray;
  if (!ok) throw invalidResponse(response, `expected a JSON ${operation.success}`, data);
  return data;
}

/** The body of an acknowledgement as the JSON string `"OK"` when it is one of its accepted forms. */
function acknowledged(bytes: Uint8Array): Uint8Array {
  return isAcknowledgement(new TextDecoder().decode(bytes))
    ? new TextEncoder().encode('"OK"')
    : bytes;
}

/** `"OK"` as a JSON string, plain `OK` (any case, surrounding white space) or an empty body. */
function isAcknowledgement(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.toUpperCase() === "OK") return true;
  if (!trimmed.startsWith('"')) return false;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === "string" && parsed.trim().toUpperCase() === "OK";
  } catch {
    return false;
  }
}
