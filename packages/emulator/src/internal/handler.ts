// The emulator's one request handler: a WHATWG `Request` in, a `Response` out. Route by the spec,
// inject faults, authenticate, validate, then dispatch by operationId. The HTTP server
// (node-server.ts), `emulator.fetch` and the MSW handlers all call this function and nothing else.
import {
  answerAdminPreflight,
  answerApiPreflight,
  applyCors,
  EXPOSED_HEADERS,
  guardAdmin,
  isPreflight,
  type AdminAccess,
  type CorsSetting,
} from "./access.js";
import type { Auth } from "./auth.js";
import type { Faults, FaultRule } from "./faults.js";
import { entryJson } from "./log-entry.js";
import { logQuery, parseCursor } from "./log-query.js";
import type { LogsStore } from "./logs-store.js";
import { cachedListing } from "./page-cache.js";
import { HttpError, type Account, type ManagementState } from "./management-state.js";
import { errorBody } from "./http-error.js";
import { ValidationError } from "@api-clients/core";
import type { SpecOperation } from "../generated/operations.js";
import type { RateLimits } from "./rate-limits.js";
import type { ScenarioEffect, Scenarios } from "./scenarios.js";
import type { RequestLog } from "./request-log.js";
import type { Router } from "./router.js";
import { checkRequest } from "./spec-validation.js";

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 1024 * 1024;
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

/**
 * Thrown by {@link handleFetch} when a fault drops the connection without an answer: the HTTP server
 * destroys the socket, `emulator.fetch` rejects as a failed `fetch` does.
 */
export class ConnectionReset extends Error {
  constructor() {
    super("emulator: the connection was reset (injected fault)");
  }
}

/** The bytes of a body the handler built, kept so the HTTP server writes them without a stream. */
export const bodyBytes = new WeakMap<Response, string | Uint8Array>();

const encoder = new TextEncoder();

/** A JSON answer (the body given as text, as UTF-8 bytes or as a value). */
export function json(
  status: number,
  body: unknown,
  headers: Headers = new Headers(),
  raw = false,
): Response {
  const data =
    body instanceof Uint8Array ? body : encoder.encode(raw ? String(body) : JSON.stringify(body));
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("content-length", String(data.byteLength));
  const res = new Response(data as Uint8Array<ArrayBuffer>, { status, headers });
  bodyBytes.set(res, data);
  return res;
}

/** An error answer: `{ error, code, message }` (`errorBody`), the shape every non-2xx answer has. */
export function errorAnswer(status: number, message: string, headers?: Headers): Response {
  return json(status, errorBody(status, message), headers);
}

/** Reads the request body, refusing more than MAX_BODY_BYTES with 413. */
async function readBody(request: Request): Promise<Uint8Array> {
  const tooLarge = (): HttpError =>
    new HttpError(413, `body: must be at most ${MAX_BODY_BYTES} bytes`, { connection: "close" });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

const decoder = new TextDecoder();

function parseJson(buf: Uint8Array): unknown {
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(buf));
  } catch {
    throw new HttpError(400, "body: is not valid JSON");
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Applies a fault; resolves to its answer, or undefined when the request goes on normally. */
async function applyFault(rule: FaultRule, out: Headers): Promise<Response | undefined> {
  if (rule.delayMs) await sleep(rule.delayMs);
  if (rule.resetConnection) throw new ConnectionReset();
  for (const [name, value] of Object.entries(rule.headers ?? {})) out.set(name, value);
  if (typeof rule.retryAfter === "number" && !Number.isInteger(rule.retryAfter)) {
    // HTTP's Retry-After takes whole seconds: a fraction goes out as retry-after-ms, the header
    // rounded up for clients that read only Retry-After.
    out.set("retry-after-ms", String(Math.round(rule.retryAfter * 1000)));
    out.set("retry-after", String(Math.ceil(rule.retryAfter)));
  } else if (rule.retryAfter !== undefined) out.set("retry-after", String(rule.retryAfter));
  // A browser script may read the headers a rule adds, like the API's own.
  if (out.has("access-control-expose-headers") && rule.headers) {
    const extra = Object.keys(rule.headers).map((h) => h.toLowerCase());
    const all = new Set<string>([...EXPOSED_HEADERS, ...extra]);
    out.set("access-control-expose-headers", [...all].join(", "));
  }
  if (rule.malformedBody) return json(rule.status ?? 200, '{"events":[{"time":17', out, true);
  if (rule.status === undefined) return undefined;
  const body =
    rule.body === undefined ? errorBody(rule.status, `injected fault (${rule.status})`) : rule.body;
  return json(rule.status, body, out, typeof body === "string");
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

/** An answer whose body comes slowly (4 parts, a wait before each) or stops halfway with an error. */
function reshape(answer: Response, effect: Extract<ScenarioEffect, { kind: "body" }>): Response {
  const bytes = bodyBytes.get(answer);
  if (bytes === undefined) return answer;
  const data = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
  const parts: Uint8Array[] = [];
  if (effect.mode === "truncated") parts.push(data.subarray(0, Math.floor(data.byteLength / 2)));
  else {
    const size = Math.ceil(data.byteLength / 4) || 1;
    for (let at = 0; at < data.byteLength; at += size) parts.push(data.subarray(at, at + size));
  }
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < parts.length) {
        if (effect.delayMs > 0) await sleep(effect.delayMs);
        controller.enqueue(parts[next++] as Uint8Array);
      } else if (effect.mode === "truncated") {
        controller.error(new TypeError("terminated: the body was cut short (truncated-body)"));
      } else controller.close();
    },
  });
  // The headers (Content-Length included) announce the whole body.
  return new Response(body, { status: answer.status, headers: answer.headers });
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
