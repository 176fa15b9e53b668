// `raw`: the openapi-fetch client (`{ data | error, response }`), each of its calls bound to its own
// call value through openapi-fetch's per-request `fetch` option, so it goes through the one request
// path (`send`) like every other call. The caller's values are checked before openapi-fetch runs.
//
// openapi-fetch's per-request options: `params`, `body`, `bodySerializer`, `querySerializer`,
// `pathSerializer`, `headers`, `parseAs`, `signal` and `middleware` work as openapi-fetch documents
// them; `fetch` is the `fetch` each attempt goes through (auth, retries, deadline, rate limit and
// tracing still apply); `baseUrl` is refused (the client's credentials never follow a call elsewhere).
// Middleware (`raw.use()` or `middleware`) sees the request once, before the attempts and without
// `Authorization`, and the final answer once, after the retries (an error answer with its body
// redacted).
import createClient, { type Middleware } from "openapi-fetch";
import { ValidationError } from "../errors.js";
import type { OperationSpec } from "../operation.js";
import type { RawClient } from "../raw-client.js";
import { BufferedResponse } from "./buffered-response.js";
import { checkInput, newCallId, type ApiContext, type Call } from "./call.js";
import { send } from "./send.js";
import { pathSerializer, querySerializer } from "./serializers.js";

/** A raw call's init, as openapi-fetch takes it (the fields the request path reads). */
interface RawInit {
  readonly params?: { readonly path?: object; readonly query?: object };
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  readonly fetch?: unknown;
  readonly baseUrl?: unknown;
}

/** openapi-fetch's `request`, untyped: it sends whichever call it is given. */
export type AnyRequest = (method: string, path: string, init: object) => Promise<unknown>;

/**
 * What openapi-fetch is handed for an error answer whose body is parsed already (so it does not
 * decode and parse it again): an empty 204 that carries the answer, swapped back by `raw`.
 */
class ParsedAnswer extends Response {
  constructor(readonly result: { error: unknown; response: Response }) {
    super(null, { status: 204 });
  }
}

/**
 * The client's own middleware, registered first so that its `onResponse` runs after every middleware
 * the caller adds (openapi-fetch runs them in reverse): they see the real answer.
 */
const handOverParsed: Middleware = {
  onResponse({ response }) {
    const parsed = BufferedResponse.exchangeOf(response)?.parsed;
    return parsed && new ParsedAnswer({ error: parsed.value, response });
  },
};

/** Builds the call value of one raw call, checking the caller's values; throws a `ValidationError`. */
function rawCall(
  api: ApiContext,
  operations: Readonly<Record<string, OperationSpec>>,
  routes: ReadonlyMap<string, string>,
  request: { method: string; path: string; init: RawInit },
): Call {
  const { init } = request;
  if (init.baseUrl !== undefined) {
    throw new ValidationError(
      "baseUrl",
      "cannot be set per request (create a client for that base URL)",
    );
  }
  const fetch = init.fetch ?? api.options.fetch;
  if (typeof fetch !== "function") throw new ValidationError("fetch", "must be a fetch function");
  const operationId = routes.get(`${request.method} ${request.path}`) ?? "";
  const operation = operations[operationId];
  const input = { path: init.params?.path, query: init.params?.query, body: init.body };
  return {
    operation,
    operationId,
    callId: newCallId(),
    typed: false,
    limits: api.options,
    signal: init.signal,
    warnings: checkInput(api, operation, operationId, input),
    fetch: fetch as typeof globalThis.fetch,
  };
}

/** openapi-fetch's result, with an error answer's parsed body swapped back in. */
function swapBack(result: unknown): unknown {
  const { response } = result as { response: Response };
  return response instanceof ParsedAnswer ? response.result : result;
}

/** Creates a client's `raw`, and the `request` of its openapi-fetch client (for the typed path). */
export function createRaw<Paths extends {}>(
  api: ApiContext,
  operations: Readonly<Record<string, OperationSpec>>,
): { raw: RawClient<Paths>; forward: AnyRequest } {
  /** `"METHOD /path/{template}"` → operationId, derived once from the one table. */
  const routes = new Map<string, string>();
  for (const id in operations) {
    const operation = operations[id] as OperationSpec;
    routes.set(`${operation.method} ${operation.path}`, id);
  }
  const client = createClient<Paths>({
    baseUrl: api.options.baseUrl,
    headers: api.options.headers,
    bodySerializer: (body: unknown) => JSON.stringify(body),
    querySerializer,
    pathSerializer,
  });
  client.use(handOverParsed);
  const forward = client.request as unknown as AnyRequest;
  function call(method: string, path: string, init: RawInit = {}): Promise<unknown> {
    try {
      const upper = method.toUpperCase();
      const bound = rawCall(api, operations, routes, { method: upper, path, init });
      // The call's own `fetch`: openapi-fetch hands it the request it built, for this call only.
      const fetch = (request: Request) => send(api, bound, request).then((o) => o.response);
      return forward(method, path, { ...init, fetch }).then(swapBack);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  // openapi-fetch's `use` and `eject` as they are; each method (`GET`, …) and `request` through `call`.
  const raw: Record<string, unknown> = { ...client, request: call };
  for (const method in client) {
    if (/^[A-Z]+$/.test(method))
      raw[method] = (path: string, init?: RawInit) => call(method, path, init);
  }
  return { raw: raw as unknown as RawClient<Paths>, forward };
}
