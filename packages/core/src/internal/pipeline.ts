// A client's request path, assembled: the client's constant parts (validated options, auth, the
// rate-limit gate, the clock) and its two entry points, which each build one call value and hand it,
// with its request, to the one `send` (send.ts: pace → attempt → decide → wait):
//   `request(operationId, input, options)` (typed-call.ts): the methods are one-liners over it;
//   `raw` (raw-call.ts): the openapi-fetch client, each call bound to its call value.
// Read one request in one direction: typed-call.ts or raw-call.ts → send.ts → attempt.ts → answer.ts.
import type { OperationSpec } from "../operation.js";
import type { ClientOptions, RequestOptions } from "../options.js";
import type { RawClient } from "../raw-client.js";
import type { ApiContext, Clock } from "./call.js";
import { validateClientOptions } from "./client-options.js";
import { createRateLimitGate } from "./rate-limit-gate.js";
import { createRaw } from "./raw-call.js";
import { secretRedactor } from "./redact.js";
import type { RequestCheck } from "./schema.js";
import { sleep } from "./sleep.js";
import { typedRequestCall, type CallInput } from "./typed-call.js";

export type { CallInput } from "./typed-call.js";

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
  /** Full `Authorization` value; kept in the client's context, set on each attempt, never exposed. */
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
  /** Where the request path reads the time and waits (core's tests only). @default the real clock */
  readonly clock?: Clock;
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

/** The real clock. */
const REAL_CLOCK: Clock = { now: Date.now, sleep };

/**
 * Creates one API's request path; validates the options first.
 *
 * @example
 * const api = createApi<paths>({ api: "logs", options, defaultBaseUrl, authorization, secrets: [token], userAgent, operations, check });
 * const page = await api.request("listLogs", { query: { count: 10 } });
 */
export function createApi<Paths extends {}>(config: ApiConfig): Api<Paths> {
  const { operations } = config;
  const options = validateClientOptions(config);
  const context: ApiContext = {
    api: config.api,
    options,
    authorization: config.authorization,
    redact: secretRedactor([config.authorization, ...config.secrets]),
    gate: createRateLimitGate(options.rateLimiter, options.baseUrl, config.authorization),
    clock: config.clock ?? REAL_CLOCK,
    check: config.check,
    bodyChecks: config.bodyChecks,
  };
  const { raw, forward } = createRaw<Paths>(context, operations);
  return {
    raw,
    baseUrl: options.baseUrl,
    request: (id, input, perCall, read) =>
      typedRequestCall(context, forward, operations, id, input, perCall, read),
  };
}
