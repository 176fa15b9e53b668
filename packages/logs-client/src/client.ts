import {
  ValidationError,
  type ClientOptions,
  type RequestFunction,
  type RequestOptions,
  type RawClient,
} from "@api-clients/core";
import {
  bearerAuthorization,
  checkQuery,
  createApi,
  fromEnvironment,
  paginate,
  paginateItems,
} from "@api-clients/core/internal";
import { operations } from "./generated/operations.js";
import type { operations as Operations, paths } from "./generated/schema.js";
import { readLogPage } from "./page.js";
import { logsQueryRules, toWireQuery } from "./params.js";
import type { IterateLogsParams, ListLogsParams, LogEntry, LogPage } from "./types.js";
import { USER_AGENT } from "./version.js";

/** Default base URL of the logs API. */
export const DEFAULT_LOGS_BASE_URL = "https://qstash.upstash.io";

/** Options of {@link createLogsClient}: the shared client options plus the API token. */
export interface LogsClientOptions extends ClientOptions {
  /**
   * The service token, sent as `Authorization: Bearer <token>`.
   * @default process.env.QSTASH_TOKEN (where `process.env` exists)
   */
  token?: string;
}

/** Per-call options of `iterate()` and `pages()`. */
export interface PaginationOptions extends RequestOptions {
  /**
   * Fetch the next page while the current one is consumed (at most one page ahead).
   * @default true
   */
  prefetch?: boolean;
  /**
   * Empty pages in a row (each with a new cursor) after which paging stops with an `ApiClientError`
   * that names the cursor to resume from.
   * @default 100
   */
  maxEmptyPages?: number;
}

/** The logs API client returned by {@link createLogsClient}. */
export interface LogsClient {
  /** Lists one page of log entries (`GET /v2/logs`). */
  list(params?: ListLogsParams, options?: RequestOptions): Promise<LogPage>;
  /** Yields every page from `params.cursor` (or the start) to the end. */
  pages(
    params?: IterateLogsParams,
    options?: PaginationOptions,
  ): AsyncGenerator<LogPage, void, undefined>;
  /** Yields every entry across pages, in order; breaking out aborts the request in flight. */
  iterate(
    params?: IterateLogsParams,
    options?: PaginationOptions,
  ): AsyncGenerator<LogEntry, void, undefined>;
  /**
   * Lists one page through the older path `GET /v2/events`.
   * @deprecated The service renames events to logs: use {@link LogsClient.list}.
   */
  listEvents(params?: ListLogsParams, options?: RequestOptions): Promise<LogPage>;
  /**
   * Sends any operation of the spec by its operationId (`"listLogs"`, `"listEvents"`) with the wire's
   * own query, through the same checks, retries and timeouts as the methods; resolves to the parsed
   * body as the service sent it (not normalized like `list()`), throws the typed errors.
   * @example
   * const wire = await logs.request("listLogs", { query: { count: 10, state: "FAILED" } });
   */
  readonly request: RequestFunction<Operations>;
  /**
   * The typed openapi-fetch client every method goes through (auth, parameter checks, retries,
   * timeouts): HTTP errors come back as `{ error, response }`, connection failures throw.
   */
  readonly raw: RawClient<paths>;
}

/**
 * Creates a client of the logs API.
 *
 * @example
 * const logs = createLogsClient({ token: process.env.QSTASH_TOKEN! });
 * for await (const entry of logs.iterate({ state: "FAILED" })) console.log(entry.messageId);
 */
export function createLogsClient(options: LogsClientOptions = {}): LogsClient {
  if (typeof options !== "object" || options === null) {
    throw new ValidationError("options", "must be an object");
  }
  const { token = fromEnvironment("QSTASH_TOKEN"), ...clientOptions } = options;
  if (typeof token !== "string" || token === "") {
    throw new ValidationError(
      "token",
      "must be a non-empty string (pass `token`, or set the QSTASH_TOKEN environment variable)",
    );
  }
  const api = createApi<paths>({
    api: "logs",
    options: clientOptions,
    defaultBaseUrl: DEFAULT_LOGS_BASE_URL,
    baseUrlVariable: "QSTASH_URL",
    authorization: bearerAuthorization(token),
    secrets: [token],
    userAgent: USER_AGENT,
    operations,
    check: checkQuery,
    queryRules: logsQueryRules,
  });

  const listAt = (id: "listLogs" | "listEvents", query: object, call?: RequestOptions) =>
    api.request(id, { query }, call, readLogPage);

  const pages = (params?: IterateLogsParams, call?: PaginationOptions) => {
    // Converted once, before the first request; each page only adds its cursor.
    const { cursor, ...query } = toWireQuery(params);
    const { prefetch, maxEmptyPages, signal, ...perCall } = call ?? {};
    return paginate(
      (next, pageSignal) =>
        listAt("listLogs", next === undefined ? query : { ...query, cursor: next }, {
          ...perCall,
          signal: pageSignal,
        }),
      { next: (page) => page.cursor, count: (page) => page.events.length },
      { prefetch, maxEmptyPages, signal, startCursor: cursor },
    );
  };

  const client: LogsClient = {
    list: async (params, call) => listAt("listLogs", toWireQuery(params), call),
    listEvents: async (params, call) => listAt("listEvents", toWireQuery(params), call),
    pages,
    iterate: (params, call) => paginateItems(pages(params, call), (page) => page.events),
    request: ((id: string, input?: object, call?: RequestOptions) =>
      api.request(id, input, call)) as RequestFunction<Operations>,
    raw: api.raw,
  };
  return Object.defineProperty(client, Symbol.for("nodejs.util.inspect.custom"), {
    value: () => `LogsClient { baseUrl: '${api.baseUrl}' }`,
  });
}
