// The emulator's one request handler: a WHATWG `Request` in, a `Response` out. Route by the spec,
// inject faults, authenticate, validate, then dispatch by operationId. The HTTP server
// (node-server.ts), `emulator.fetch` and the MSW handlers all call this function and nothing else.
import {
  answerAdminPreflight,
  answerApiPreflight,
  applyCors,
  guardAdmin,
  isPreflight,
  type AdminAccess,
  type CorsSetting,
} from "./access.js";
import type { Auth } from "./auth.js";
import type { Faults } from "./faults.js";
import { entryJson } from "./log-entry.js";
import { logQuery, parseCursor } from "./log-query.js";
import type { LogsStore } from "./logs-store.js";
import { cachedListing } from "./page-cache.js";
import { HttpError, type Account, type ManagementState } from "./management-state.js";
import { ValidationError } from "@api-clients/core";
import type { SpecOperation } from "../generated/operations.js";
import type { RateLimits } from "./rate-limits.js";
import type { Scenarios } from "./scenarios.js";
import type { RequestLog } from "./request-log.js";
import type { Router } from "./router.js";
import { checkRequest } from "./spec-validation.js";
import {
  applyFault,
  ConnectionReset,
  errorAnswer,
  json,
  parseJson,
  readBody,
  reshape,
} from "./answers.js";

/** Path prefix of the admin API. */
export const ADMIN_PREFIX = "/__emulator/";

/** Everything the request handler works with. */
export interface ServerContext {
  readonly router: Router;
  readonly faults: Faults;
  readonly auth: () => Auth;
  readonly logs: LogsStore;
  readonly management: ManagementState;
  /** The logs API's burst limit and daily quota, per token. */
  readonly rateLimits: RateLimits;
  /** CORS of the two APIs (never of the admin API). */
  readonly cors: CorsSetting;
  /** Extra hosts and origins the admin API accepts. */
  readonly adminAccess: AdminAccess;
  /** The last API requests (never admin ones), with their trace context. */
  readonly requests: RequestLog;
  /** The named scenarios running. */
  readonly scenarios: Scenarios;
  /** The field log pages put their entries under (`logs-field` scenario aside). */
  readonly logsField: "events" | "logs";
  /** Handles `/__emulator/...`; resolves to the status and JSON body. */
  readonly admin: (
    method: string,
    path: string,
    body: unknown,
  ) => Promise<{ status: number; body: unknown }>;
}

/** Where a request came from: the peer's address (`127.0.0.1` for the in-process forms). */
export interface Connection {
  readonly remoteAddress: string;
}

/** The listing handler shared by `listLogs` and `listEvents`. */
function listLogs(
  ctx: ServerContext,
  query: Record<string, unknown>,
  field: "events" | "logs",
): string {
  const rawCursor = query["cursor"];
  let cursor: { time: number; seq: number } | undefined;
  if (typeof rawCursor === "string" && rawCursor !== "") {
    cursor = parseCursor(rawCursor);
    if (!cursor)
      throw new ValidationError(
        "cursor",
        "must be a cursor returned by a previous page (<timestamp_ms>-<sequence>)",
      );
  }
  const page = ctx.logs.page(logQuery(query, cursor));
  const parts = new Array<string>(page.entries.length);
  for (let i = 0; i < page.entries.length; i++) parts[i] = entryJson(page.entries[i]!);
  const head = page.cursor === undefined ? "{" : `{"cursor":"${page.cursor}",`;
  return `${head}"${field}":[${parts.join(",")}]}`;
}

/** Handlers of the logs spec, by operationId: `/v2/events` is the older name of `/v2/logs`. */
const LOGS_HANDLERS: Record<
  string,
  (
    ctx: ServerContext,
    query: Record<string, unknown>,
    field: "events" | "logs",
  ) => Uint8Array | string
> = {
  listLogs: cachedListing(listLogs),
  listEvents: cachedListing(listLogs),
};

/** The caller of an operation without authentication: owns nothing, sees nothing. */
const ANONYMOUS: Account = { email: "", apiKey: "" };

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Paths answered as another: the audit log's reference gives it the bare host (`/auditlogs`, the
 * spec's path), while the docs site's rendered example shows `/v2/auditlogs`; both answer.
 */
const PATH_ALIASES: Readonly<Record<string, string>> = { "/v2/auditlogs": "/auditlogs" };

/** The path of a request URL as sent (still percent-encoded), and its query. */
function target(url: string): { path: string; search: URLSearchParams } {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const rest = start < 0 ? "/" : url.slice(start);
  const hash = rest.indexOf("#");
  const noHash = hash < 0 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf("?");
  return {
    path: q < 0 ? noHash : noHash.slice(0, q),
    search: new URLSearchParams(q < 0 ? "" : noHash.slice(q + 1)),
  };
}

/**
 * Answers one request of either API or of the admin API. Rejects with {@link ConnectionReset} when a
 * fault drops the connection; every other outcome, a bug included, is a `Response`.
 */
export async function handleFetch(
  ctx: ServerContext,
  request: Request,
  conn: Connection,
): Promise<Response> {
  const out = new Headers();
  let answered: Response;
  const method = request.method.toUpperCase();
  const { path, search } = target(request.url);
  const isAdmin = path.startsWith(ADMIN_PREFIX) || path === ADMIN_PREFIX.slice(0, -1);
  const record = isAdmin ? undefined : ctx.requests.add(request.headers, method, path);
  try {
    answered = isAdmin
      ? await handleAdmin(ctx, request, conn, method, path, out)
      : await handleApi(ctx, request, conn, method, path, search, out, record);
  } catch (e) {
    if (e instanceof ConnectionReset) throw e;
    answered = errorResponse(e, out);
  }
  if (record) ctx.requests.answered(record, answered.status);
  return answered;
}

function errorResponse(e: unknown, out: Headers): Response {
  if (e instanceof ValidationError) return errorAnswer(400, e.message, out);
  if (e instanceof HttpError) {
    for (const [name, value] of Object.entries(e.headers)) out.set(name, value);
    return errorAnswer(e.status, e.message, out);
  }
  // A bug: still answer in the JSON error shape.
  return errorAnswer(
    500,
    `emulator: unexpected error: ${e instanceof Error ? e.message : String(e)}`,
    out,
  );
}

async function handleAdmin(
  ctx: ServerContext,
  request: Request,
  conn: Connection,
  method: string,
  path: string,
  out: Headers,
): Promise<Response> {
  if (!LOOPBACK.test(conn.remoteAddress)) {
    throw new HttpError(403, "admin: only available from the loopback interface");
  }
  const host = request.headers.get("host") ?? new URL(request.url).host;
  guardAdmin(ctx.adminAccess, method, request.headers, host, out);
  if (isPreflight(method, request.headers)) return answerAdminPreflight(out);
  const body = parseJson(await readBody(request));
  const result = await ctx.admin(method, path, body);
  return json(result.status, result.body, out);
}

async function handleApi(
  ctx: ServerContext,
  request: Request,
  conn: Connection,
  method: string,
  path: string,
  search: URLSearchParams,
  out: Headers,
  record: { operationId?: string } | undefined,
): Promise<Response> {
  applyCors(ctx.cors, request.headers, out);
  // Preflights are answered before faults, so a browser's preflight never uses up a rule.
  if (ctx.cors !== false && isPreflight(method, request.headers)) {
    return answerApiPreflight(request.headers, out);
  }

  const route = ctx.router.match(method, PATH_ALIASES[path] ?? path);
  if (route.kind === "match" && record) record.operationId = route.op.operationId;
  const fault = ctx.faults.take(
    method,
    path,
    route.kind === "match" ? route.op.operationId : undefined,
    route.kind === "match" ? route.op.path : undefined,
  );
  if (fault) {
    const answer = await applyFault(fault, out);
    if (answer) return answer;
  }

  if (route.kind === "not-found") {
    return errorAnswer(404, `path: no operation at ${method} ${path}`, out);
  }
  if (route.kind === "method-not-allowed") {
    out.set("allow", route.allow.join(", "));
    return errorAnswer(
      405,
      `method: ${method} is not allowed on ${path}; use ${route.allow.join(", ")}`,
      out,
    );
  }
  const op = route.op;
  const raw = await readBody(request);
  const auth = ctx.auth();
  const authorization = request.headers.get("authorization") ?? undefined;
  const account = op.auth === "basic" ? auth.basic(authorization) : undefined;
  if (op.auth === "bearer") auth.bearer(authorization, (t) => ctx.management.qstash.accepts(t));
  const scenario = ctx.scenarios.take({ operationId: op.operationId, search });
  if (scenario?.kind === "answer") {
    if (scenario.rateLimited) ctx.rateLimits.countRefused();
    const answer = await applyFault(scenario.rule, out);
    if (answer) return answer;
  }
  if (op.auth === "bearer") {
    if (ctx.rateLimits.enabled) {
      // Every later answer of this request (a 400 too) carries the rate-limit headers.
      const limited = ctx.rateLimits.take(authorization ?? "");
      for (const [name, value] of Object.entries(limited.headers)) out.set(name, value);
      if (limited.refused !== undefined) return errorAnswer(429, limited.refused, out);
    }
  }

  const body = op.body ? parseJson(raw) : undefined;
  const checked = checkRequest(op, search, route.params, body);
  const ip = conn.remoteAddress.replace(/^::ffff:/, "");
  const field = scenario?.kind === "logs-field" ? "logs" : ctx.logsField;
  const answer = dispatch(ctx, op, out, { params: route.params, ...checked, account, ip }, field);
  return scenario?.kind === "body" ? reshape(answer, scenario) : answer;
}

function dispatch(
  ctx: ServerContext,
  op: SpecOperation,
  out: Headers,
  input: {
    params: Record<string, string>;
    query: Record<string, unknown>;
    body: unknown;
    account: Account | undefined;
    ip: string;
  },
  field: "events" | "logs",
): Response {
  const logsHandler = LOGS_HANDLERS[op.operationId];
  if (logsHandler) return json(200, logsHandler(ctx, input.query, field), out, true);
  if (!input.account && op.auth !== "none")
    throw new HttpError(401, "authorization: HTTP Basic credentials are required");
  // An operation without authentication (the QStash IPv4 list) runs for a caller who owns nothing.
  const account = input.account ?? ANONYMOUS;
  const result = ctx.management.run(op.operationId, { ...input, account });
  return json(200, result, out);
}
