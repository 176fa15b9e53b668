// The one request path of every client. Each API gets one openapi-fetch client; its own extension
// points carry the cross-cutting behaviour, so `raw`, `request()` and the methods share every rule:
//   `bodySerializer`        serializes the JSON body once (the text is re-sent on a retry);
//   middleware `onRequest`  finds the operation (given by `request()`, else from `schemaPath`), checks
//                           path, query and body against the spec's rules (warning about unknown
//                           fields), and records the call's limits and retry policy;
//   the `fetch` option      runs the attempts: build → attempt (send, read the body within the
//                           timeout) → decide → wait → retry, and hands openapi-fetch a complete
//                           response (or, for `request()`, throws the typed error itself).
// `request(operationId, input, options)` is the typed entry point; the ergonomic methods are one-liners
// over it. Everything one call needs travels in one `Call` record, handed from `request()` to the
// middleware synchronously (openapi-fetch runs from `request()` to `onRequest` without awaiting) and
// from the middleware to the attempt loop through a `WeakMap` keyed by the `Request`.
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
import type { OperationSpec } from "../operation.js";
import type { ClientOptions, RequestOptions } from "../options.js";
import type { RawClient } from "../raw-client.js";
import { BufferedResponse, invalidResponse, type Exchange } from "./buffered-response.js";
import {
  redactData,
  redactHeaders,
  redactUrl,
  secretRedactor,
  TOO_DEEP_NOTE,
  truncate,
} from "./redact.js";
import { IDLE, watchCall, watched, type Watch } from "./tracing.js";
import {
  isConnectionNotEstablished,
  isIdempotentMethod,
  retryDecision,
  type RetryDecision,
} from "./retry-policy.js";
import { requireWellFormed, type RequestCheck } from "./schema.js";
import { sleep } from "./sleep.js";
import { validateClientOptions, validateLimits, type Limits } from "./client-options.js";
import { Deadline } from "./deadline.js";
import { createRateLimitGate, type GatedCall } from "./rate-limit-gate.js";

/** What a client passes to {@link createApi}. */
export interface ApiConfig {
  /** Which API, as tracing names it: `"logs"` or `"management"`. */
  readonly api: string;
  /** The user's client options (validated here; `ValidationError` when wrong). */
  readonly options: ClientOptions;
  /** Base URL used when `options.baseUrl` is not set. */
  readonly defaultBaseUrl: string;
  /** Environment variable read for the base URL when `options.baseUrl` is not set (before the default). */
  readonly baseUrlVariable?: string;
  /** Full `Authorization` value; kept in a closure, set on each attempt, never exposed. */
  readonly authorization: string;
  /** Every secret the client holds (token, key, …): redacted from any error text a server echoes. */
  readonly secrets: readonly string[];
  /** `User-Agent` value naming the package and version. */
  readonly userAgent: string;
  /** The generated operation table, by operationId (the one table: routes are derived from it). */
  readonly operations: Readonly<Record<string, OperationSpec>>;
  /** The spec's rules for each call: `checkRequest`, or `checkQuery` for query-only operations. */
  readonly check: RequestCheck;
  /**
   * Rules the spec states only in prose, by operationId: run on the JSON body after the spec's own
   * checks, for the methods, `request()` and `raw` alike; each throws a `ValidationError` to refuse.
   */
  readonly bodyChecks?: Readonly<Record<string, (body: unknown) => void>>;
  /**
   * The API's own rules for every query, run as it is serialized, for the methods, `request()` and
   * `raw` alike (a value sent upper case, a bound not after another): returns the query to send (a
   * copy when it changes one) or throws a `ValidationError` to refuse.
   */
  readonly queryRules?: (query: Record<string, unknown>) => Record<string, unknown>;
}

/** The path parameters, query and JSON body of one call. */
export interface CallInput {
  readonly path?: object | undefined;
  readonly query?: object | undefined;
  readonly body?: unknown;
}

/** One API's request path: the openapi-fetch client and the typed `request()` on top of it. */
export interface Api<Paths extends {}> {
  /** The openapi-fetch client (`{ data | error, response }`; throws only typed connection errors). */
  readonly raw: RawClient<Paths>;
  /** Validated base URL without a trailing slash. */
  readonly baseUrl: string;
  /**
   * Sends one operation by its operationId and returns its parsed success body, checked against the
   * success shape the spec gives it (then passed through `read`, which may check more); an
   * acknowledgement resolves to `undefined`; any failure throws the typed error.
   */
  request<T = unknown>(
    id: string,
    input?: CallInput,
    options?: RequestOptions,
    read?: (data: unknown, response: Response) => T,
  ): Promise<T>;
}

/** openapi-fetch's `request`, untyped: `request()` sends whichever operation it is given. */
type RawRequest = (
  method: string,
  path: string,
  init: object,
) => Promise<{ data?: unknown; response: Response }>;

/** Everything the pipeline knows about one call, from `request()` or the middleware to the attempt loop. */
interface Call {
  /** The operation, found once (undefined for a raw call to a path the spec does not have). */
  readonly operation: OperationSpec | undefined;
  /** Its operationId (`""` when there is none). */
  readonly operationId: string;
  readonly limits: Limits;
  /** openapi-fetch's id of the call, shared by its events and traces. */
  callId?: string;
  /** What to report about body fields the spec does not list (`warning` events). */
  warnings?: string[] | undefined;
  /** The call's watch, once sent: a `request()` call finishes it when its result is read. */
  watch?: Watch;
  /** The error the final answer of a raw call carries (for its `error` event and trace). */
  error?: ApiError | undefined;
  /** From `request()`: HTTP errors are thrown as the typed error instead of handed to openapi-fetch. */
  readonly direct: boolean;
  /** From `request()` without a `signal`: nothing can abort the call, so no abort is forwarded. */
  readonly unsignalled?: boolean;
  /** The serialized JSON body, re-sent on each attempt. */
  body?: string | undefined;
  /** Set by the attempt loop when a 4xx answer says the state already matches (`x-already-applied`). */
  applied?: boolean;
  /** A raw call's error answer: its body parsed once, for openapi-fetch's `{ error, response }`. */
  answer?: RawAnswer;
}

/**
 * What a raw call resolves to for an error answer: `{ error }`, or, for an `x-already-applied`
 * answer, the acknowledgement `{ data: "OK" }` the methods resolve on (the real response kept).
 */
type RawAnswer =
  | { readonly error: unknown; readonly response: Response }
  | { readonly data: "OK"; readonly response: Response };

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
function refused(response: Response, url: string): string | { reason: string } | undefined {
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
  if (url.startsWith("https:") && response.url.startsWith("http:")) {
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
  // Read chunk by chunk, even with a declared length: an encoded body's length counts compressed
  // bytes, a `fetch` option's Response may declare less than it holds, and (measured) the reader is
  // faster than `arrayBuffer()`, which copies the bytes once more.
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
function checkedSerializer<A, B>(
  serialize: (a: A, b: B) => string,
  location: "path" | "query",
  params: (a: A, b: B) => unknown,
): (a: A, b?: B) => string {
  // Two named parameters (the path serializer's), not a rest array made on every call.
  return (a, b) => {
    try {
      return serialize(a, b as B);
    } catch (error) {
      if (!(error instanceof URIError)) throw error;
      const values = params(a, b as B) as Record<string, unknown>;
      for (const [name, value] of Object.entries(values ?? {})) {
        for (const item of Array.isArray(value) ? value : [value]) {
          if (typeof item === "string") requireWellFormed(item, name);
        }
      }
      throw new ValidationError(location, "cannot be encoded into a URL");
    }
  };
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const OK_JSON = encoder.encode('"OK"');
const OK_DECISION: RetryDecision = { retry: false, reason: "ok" };

/**
 * Creates one API's request path over one openapi-fetch client; validates the options first.
 *
 * @example
 * const api = createApi<paths>({ api: "logs", options, defaultBaseUrl, authorization, secrets: [token], userAgent, operations });
 * const page = await api.request("listLogs", { query: { count: 10 } });
 */
export function createApi<Paths extends {}>(config: ApiConfig): Api<Paths> {
  const { operations } = config;
  const options = validateClientOptions(config);
  const { baseUrl, logger } = options;
  const redact = secretRedactor([config.authorization, ...config.secrets]);
  const authorization = config.authorization;
  const baseFetch = options.fetch;
  const gate = createRateLimitGate(options.rateLimiter, baseUrl, authorization);
  /** `"METHOD /path/{template}"` → operationId, derived once from the one table (for `raw` calls). */
  const routes = new Map<string, string>();
  for (const id in operations) {
    const operation = operations[id] as OperationSpec;
    routes.set(`${operation.method} ${operation.path}`, id);
  }
  /** A call `request()` did not start: a raw one, its operation found from the route. */
  const rawCall = (method: string, schemaPath: string): Call => {
    const operationId = routes.get(`${method} ${schemaPath}`) ?? "";
    return { operation: operations[operationId], operationId, limits: options, direct: false };
  };
  /** The call `request()` is starting; openapi-fetch reaches `onRequest` before `request()` returns. */
  let starting: Call | undefined;
  /** The body the serializer just turned into JSON, for the `onRequest` of the same call. */
  let serialized: { readonly value: unknown; readonly text: string } | undefined;
  /** The call of each request in flight, recorded by the middleware. */
  const callOf = new WeakMap<Request, Call>();

  const middleware: Middleware = {
    onRequest({ request, schemaPath, params, id }) {
      const body = serialized;
      serialized = undefined;
      const call = starting ?? rawCall(request.method, schemaPath);
      starting = undefined;
      call.body = body?.text;
      call.callId = id;
      callOf.set(request, call);
      const operation = call.operation;
      if (operation === undefined) return undefined;
      call.warnings = config.check(
        operation,
        params.path,
        params.query,
        request.body === null ? undefined : { value: body?.value },
      );
      config.bodyChecks?.[call.operationId]?.(body?.value);
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
   * The acknowledgement rule, the one place it lives: every 2xx of an acknowledgement operation is a
   * success. `"OK"` (JSON or plain, any case) or an empty body reads as `"OK"`; anything else is kept
   * (as a JSON string when it is not JSON) and quoted in a `warning` event, never an error.
   */
  function acknowledgement(bytes: Uint8Array, watch: Watch): Uint8Array {
    const text = decoder.decode(bytes).trim();
    if (/^("?)\s*(ok)?\s*\1$/i.test(text)) return OK_JSON;
    watch.warn(
      `the acknowledgement is not "OK" but ${truncate(redact(text), 200)}; read as success`,
    );
    try {
      JSON.parse(text);
      return bytes;
    } catch {
      return encoder.encode(JSON.stringify(text));
    }
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
  async function send(request: Request): Promise<Response> {
    const { method, url } = request;
    const call = callOf.get(request) ?? rawCall(method, "");
    const { operation } = call;
    // Nothing is built for a call nobody watches.
    const watch = watched(logger)
      ? watchCall(
          {
            api: config.api,
            operationId: call.operationId,
            method,
            path: operation?.path ?? "",
            url,
            callId: call.callId ?? "",
          },
          logger,
        )
      : IDLE;
    // [deadline] One bound on the whole call: attempts, retry waits and rate-limit waits.
    const deadline = new Deadline(call.limits.deadlineMs);
    const gated = { method, url: redactUrl(url), signal: request.signal, deadline, watch };
    try {
      for (const message of call.warnings ?? []) watch.warn(message);
      const response = await attempts(request, call, gated);
      // A `request()` call ends when its result is read (`request()` finishes it); a raw one here.
      if (call.direct) call.watch = watch;
      else watch.finish(call.error);
      return response;
    } catch (error) {
      watch.finish(error);
      throw error;
    } finally {
      gate.end(gated);
    }
  }

  /** Every attempt of one request: build → attempt → decide → wait → retry. */
  async function attempts(
    request: Request,
    call: Call,
    gated: GatedCall & { readonly watch: Watch },
  ): Promise<Response> {
    const { method, url, deadline, watch } = gated;
    const { operation, limits } = call;
    const idempotent = operation?.idempotent ?? isIdempotentMethod(method);
    const userSignal = request.signal;
    request.headers.set("authorization", authorization);
    // Whether an earlier attempt of a state-changing call may have been applied (timeout, reset, 5xx).
    let uncertain = false;
    const changesState = !/^(GET|HEAD|OPTIONS)$/.test(method);

    for (let attempt = 1; ; attempt++) {
      if (userSignal.aborted) throw new AbortError(userSignal.reason);
      // [rate limit] Wait until the budget the server reported has room for this attempt.
      const paced = gate.pace(gated, attempt);
      const rateLimitWaitMs = paced === 0 ? 0 : await paced;
      const attemptMs = Math.min(limits.timeoutMs, deadline.remaining());
      if (attemptMs <= 0) {
        throw deadline.exceeded(
          { method, url, attempts: attempt - 1 },
          "no time left for an attempt",
        );
      }
      // Build: the first attempt sends the request itself; a retry re-sends the serialized body (or,
      // for a body this pipeline did not serialize, a copy kept while another attempt may need it).
      let outgoing = request;
      let init: RequestInit | undefined;
      if (request.body !== null) {
        if (call.body !== undefined) {
          if (attempt > 1) init = { body: call.body };
        } else if (attempt <= limits.maxRetries) {
          outgoing = request.clone();
        }
      }
      watch.attempt(attempt, outgoing.headers, rateLimitWaitMs);
      // Attempt: one timer covers the response and its whole body; the user's abort is forwarded.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, attemptMs);
      const forwardAbort = () => controller.abort(userSignal.reason);
      if (!call.unsignalled) userSignal.addEventListener("abort", forwardAbort);
      let decision: RetryDecision;
      let response: Response | undefined;
      let final: Response | ApiError | undefined;
      try {
        response = await baseFetch(
          outgoing,
          init ? { ...init, signal: controller.signal } : { signal: controller.signal },
        );
        const refusal = refused(response, url);
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
        const reported = gate.report(gated, response);
        if (reported !== undefined) await reported;
        // Decide on the status alone: a response to retry is not read.
        decision = response.ok
          ? OK_DECISION
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
          const bytes = await readBody(response, limits.maxResponseBytes);
          const exchange: Exchange = { method, url, attempts: attempt, redact };
          if (response.ok) {
            const ack = operation?.success === "acknowledgement";
            final = new BufferedResponse(
              ack ? acknowledgement(bytes, watch) : bytes,
              response,
              exchange,
            );
          } else {
            final = failed(
              call,
              response,
              bytes,
              exchange,
              "note" in decision ? decision.note : undefined,
            );
          }
          const error = maybeApplied(final instanceof ApiError ? final : call.error, uncertain);
          watch.settle({ status: response.status, bytes: bytes.byteLength, error });
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
        if (!call.unsignalled) userSignal.removeEventListener("abort", forwardAbort);
      }
      if (final instanceof Response) return final;
      if (final !== undefined) throw final;
      // Wait, then retry.
      const { delayMs, reason } = decision as Extract<RetryDecision, { retry: true }>;
      watch.settle({ status: response?.status, retryDelayMs: delayMs, reason });
      try {
        await sleep(delayMs, userSignal);
      } catch {
        throw new AbortError(userSignal.reason);
      }
    }
  }

  /**
   * A final non-2xx answer, its body read whole: decoded, redacted and parsed once into the typed
   * error. `request()` gets that error thrown; `raw` gets the redacted response, and the parsed body
   * as openapi-fetch's `{ error }` (see `raw`). An `x-already-applied` answer is a success for both:
   * `request()` resolves, `raw` gets `{ data: "OK" }` with the real response.
   */
  function failed(
    call: Call,
    response: Response,
    bytes: Uint8Array,
    exchange: Exchange,
    note: string | undefined,
  ): Response | ApiError {
    const { status } = response;
    const decoded = decoder.decode(bytes);
    const json = parseJson(decoded);
    // Redacted as parsed data, so JSON escapes cannot hide an echoed secret.
    let changed = false;
    const body = redactData(json === undefined ? decoded || undefined : json.value, (text) => {
      const redacted = redact(text);
      changed ||= redacted !== text;
      return redacted;
    });
    const tooDeep = json !== undefined && body === undefined;
    // What `raw` callers read: the text as sent unless redaction changed the data.
    const text =
      json === undefined || tooDeep ? redact(decoded) : changed ? JSON.stringify(body) : decoded;
    const headers = redactHeaders(response.headers, redact);
    const applied = call.operation?.alreadyApplied;
    if (
      applied !== undefined &&
      status >= 400 &&
      status < 500 &&
      text.toLowerCase().includes(applied.toLowerCase())
    ) {
      // The service says the state already matches: the call had its effect.
      call.applied = true;
    }
    if (!call.applied) {
      const error = ApiError.from({
        status,
        headers,
        body,
        ...exchange,
        note: tooDeep ? (note === undefined ? TOO_DEEP_NOTE : `${note}; ${TOO_DEEP_NOTE}`) : note,
      });
      if (call.direct) return error;
      call.error = error;
    }
    const buffered = new BufferedResponse(encoder.encode(text), response, exchange, headers);
    // The body kept too deep is not a value to hand back: openapi-fetch parses the text as before.
    if (call.applied) call.answer = { data: "OK", response: buffered };
    else if (!tooDeep) call.answer = { error: body, response: buffered };
    return buffered;
  }

  const serializeQuery = createQuerySerializer();
  const rules = config.queryRules;
  /** The answers of raw calls, each behind the empty stand-in openapi-fetch was handed for it. */
  const answers = new WeakMap<Response, RawAnswer>();
  const client = createClient<Paths>({
    baseUrl,
    fetch: send,
    headers: options.headers,
    bodySerializer(body: unknown) {
      const text = JSON.stringify(body);
      serialized = { value: body, text };
      return text;
    },
    querySerializer: checkedSerializer(
      (query: Record<string, unknown>) => serializeQuery(rules ? rules(query) : query),
      "query",
      (query) => query,
    ),
    pathSerializer: checkedSerializer(defaultPathSerializer, "path", (_path, params) => params),
  });
  client.use(middleware, {
    // Runs after every middleware the caller added (openapi-fetch calls them in reverse), so they
    // see the real answer. openapi-fetch would decode and parse an error body a second time: it is
    // handed an empty 204 instead, and `raw` swaps the answer parsed in `failed()` back in.
    onResponse({ request, response }) {
      const answer = callOf.get(request)?.answer;
      if (answer?.response !== response) return undefined;
      const standIn = new Response(null, { status: 204 });
      answers.set(standIn, answer);
      return standIn;
    },
  });
  /** The openapi-fetch client, its results with the raw error answers swapped back in. */
  const raw: Record<string, unknown> = { ...client };
  for (const name in client) {
    if (name !== "use" && name !== "eject") {
      raw[name] = (...args: never[]) =>
        (client[name as "GET"] as (...args: never[]) => Promise<{ response: Response }>)(
          ...args,
        ).then((result) => answers.get(result.response) ?? result);
    }
  }

  async function request<T>(
    id: string,
    input: CallInput = {},
    perCall: RequestOptions = {},
    read?: (data: unknown, response: Response) => T,
  ): Promise<T> {
    const operation = Object.hasOwn(operations, id) ? operations[id] : undefined;
    if (operation === undefined) {
      throw new ValidationError(
        "operationId",
        `is not an operation of this API: ${JSON.stringify(id)}`,
      );
    }
    const call: Call = {
      operation,
      operationId: id,
      limits: validateLimits(perCall, options),
      direct: true,
      unsignalled: perCall.signal === undefined,
    };
    let pending: Promise<{ data?: unknown; response: Response }>;
    starting = call;
    serialized = undefined;
    try {
      pending = (client.request as unknown as RawRequest)(operation.method, operation.path, {
        params: { path: input.path, query: input.query },
        body: input.body,
        signal: perCall.signal,
      });
    } finally {
      starting = undefined;
    }
    try {
      const { data, response } = await pending;
      let result: T = undefined as T;
      if (!call.applied && operation.success !== "acknowledgement") {
        const body = readSuccess(operation, data, response);
        result = read === undefined ? (body as T) : read(body, response);
      }
      call.watch?.finish(undefined);
      return result;
    } catch (error) {
      call.watch?.finish(error);
      throw error;
    }
  }

  return { raw: raw as unknown as RawClient<Paths>, baseUrl, request };
}

/** Checks a success body against the shape the spec promises; anything else is an `InvalidResponseError`. */
function readSuccess(operation: OperationSpec, data: unknown, response: Response): unknown {
  if (data === undefined) throw invalidResponse(response, "response body is empty");
  const isArray = Array.isArray(data);
  const ok =
    operation.success === "array" ? isArray : typeof data === "object" && data !== null && !isArray;
  if (!ok) throw invalidResponse(response, `expected a JSON ${operation.success}`, data);
  return data;
}
