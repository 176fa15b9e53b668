// The HTTP layer: route by the spec, inject faults, authenticate, validate, then dispatch by operationId.
import type { IncomingMessage, ServerResponse } from "node:http";
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
import { entryJson, logQuery, parseCursor, type LogsStore } from "./logs-store.js";
import { cachedListing } from "./page-cache.js";
import { HttpError, type Account, type ManagementState } from "./management-state.js";
import { ValidationError } from "@api-clients/core";
import type { SpecOperation } from "../generated/operations.js";
import type { RateLimits } from "./rate-limits.js";
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
  /** Handles `/__emulator/...`; resolves to the status and JSON body. */
  readonly admin: (
    method: string,
    path: string,
    body: unknown,
  ) => Promise<{ status: number; body: unknown }>;
}

/** Sends a JSON body (given as text, as UTF-8 bytes or as a value). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  raw = false,
): void {
  if (res.headersSent || res.destroyed) return;
  const text = Buffer.isBuffer(body) ? body : raw ? String(body) : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** Sends the `{ "error": message }` shape every non-2xx answer has. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: message }, headers);
}

/** Reads the request body, refusing more than MAX_BODY_BYTES with 413. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    return Promise.reject(
      new HttpError(413, `body: must be at most ${MAX_BODY_BYTES} bytes`, { connection: "close" }),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        reject(
          new HttpError(413, `body: must be at most ${MAX_BODY_BYTES} bytes`, {
            connection: "close",
          }),
        );
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!done) reject(e);
      done = true;
    });
  });
}

function parseJson(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch {
    throw new HttpError(400, "body: is not valid JSON");
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Applies a fault; returns true when it answered (or dropped) the request. */
async function applyFault(
  rule: FaultRule,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (rule.delayMs) await sleep(rule.delayMs);
  if (rule.resetConnection) {
    req.socket.destroy();
    return true;
  }
  const headers: Record<string, string> = { ...(rule.headers ?? {}) };
  if (typeof rule.retryAfter === "number" && !Number.isInteger(rule.retryAfter)) {
    // HTTP's Retry-After takes whole seconds: a fraction goes out as retry-after-ms, the header
    // rounded up for clients that read only Retry-After.
    headers["retry-after-ms"] = String(Math.round(rule.retryAfter * 1000));
    headers["retry-after"] = String(Math.ceil(rule.retryAfter));
  } else if (rule.retryAfter !== undefined) headers["retry-after"] = String(rule.retryAfter);
  // A browser script may read the headers a rule adds, like the API's own.
  if (res.hasHeader("access-control-expose-headers") && rule.headers) {
    const extra = Object.keys(rule.headers).map((h) => h.toLowerCase());
    const all = new Set<string>([...EXPOSED_HEADERS, ...extra]);
    res.setHeader("access-control-expose-headers", [...all].join(", "));
  }
  if (rule.malformedBody) {
    req.resume();
    sendJson(res, rule.status ?? 200, '{"events":[{"time":17', headers, true);
    return true;
  }
  if (rule.status === undefined) return false;
  req.resume();
  const body = rule.body === undefined ? { error: `injected fault (${rule.status})` } : rule.body;
  if (typeof body === "string") sendJson(res, rule.status, body, headers, true);
  else sendJson(res, rule.status, body, headers);
  return true;
}

/** The listing handler shared by `listLogs` and `listEvents`. */
function listLogs(ctx: ServerContext, query: Record<string, unknown>): string {
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
  return `${head}"events":[${parts.join(",")}]}`;
}

/** Handlers of the logs spec, by operationId: `/v2/events` is the older name of `/v2/logs`. */
const LOGS_HANDLERS: Record<
  string,
  (ctx: ServerContext, query: Record<string, unknown>) => Buffer | string
> = {
  listLogs: cachedListing(listLogs),
  listEvents: cachedListing(listLogs),
};

/** The caller of an operation without authentication: owns nothing, sees nothing. */
const ANONYMOUS: Account = { email: "", apiKey: "" };

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Handles one request end to end. */
export async function handleRequest(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    const method = (req.method ?? "GET").toUpperCase();
    const rawUrl = req.url ?? "/";
    const q = rawUrl.indexOf("?");
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const search = new URLSearchParams(q < 0 ? "" : rawUrl.slice(q + 1));

    if (path.startsWith(ADMIN_PREFIX) || path === ADMIN_PREFIX.slice(0, -1)) {
      if (!LOOPBACK.test(req.socket.remoteAddress ?? "")) {
        req.resume();
        return sendError(res, 403, "admin: only available from the loopback interface");
      }
      guardAdmin(ctx.adminAccess, method, req, res);
      if (isPreflight(method, req)) return answerAdminPreflight(req, res);
      const body = parseJson(await readBody(req));
      const out = await ctx.admin(method, path, body);
      return sendJson(res, out.status, out.body);
    }

    const record = ctx.requests.add(req, res, method, path);
    applyCors(ctx.cors, req, res);
    // Preflights are answered before faults, so a browser's preflight never uses up a rule.
    if (ctx.cors !== false && isPreflight(method, req)) return answerApiPreflight(req, res);

    const route = ctx.router.match(method, path);
    if (route.kind === "match") record.operationId = route.op.operationId;
    const fault = ctx.faults.take(
      method,
      path,
      route.kind === "match" ? route.op.operationId : undefined,
      route.kind === "match" ? route.op.path : undefined,
    );
    if (fault && (await applyFault(fault, req, res))) return;

    if (route.kind === "not-found") {
      req.resume();
      return sendError(res, 404, `path: no operation at ${method} ${path}`);
    }
    if (route.kind === "method-not-allowed") {
      req.resume();
      return sendError(
        res,
        405,
        `method: ${method} is not allowed on ${path}; use ${route.allow.join(", ")}`,
        {
          allow: route.allow.join(", "),
        },
      );
    }
    const op = route.op;
    const raw = await readBody(req);
    const auth = ctx.auth();
    const account = op.auth === "basic" ? auth.basic(req.headers.authorization) : undefined;
    if (op.auth === "bearer") {
      auth.bearer(req.headers.authorization, (t) => ctx.management.qstash.accepts(t));
      if (ctx.rateLimits.enabled) {
        // Every later answer of this request (a 400 too) carries the rate-limit headers.
        const limited = ctx.rateLimits.take(req.headers.authorization ?? "");
        for (const [name, value] of Object.entries(limited.headers)) res.setHeader(name, value);
        if (limited.refused !== undefined) return sendError(res, 429, limited.refused);
      }
    }

    const body = op.body ? parseJson(raw) : undefined;
    const checked = checkRequest(op, search, route.params, body);
    const ip = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
    dispatch(ctx, op, res, { params: route.params, ...checked, account, ip });
  } catch (e) {
    if (e instanceof ValidationError) return sendError(res, 400, e.message);
    if (e instanceof HttpError) {
      if (e.status === 403 || e.status === 415) req.resume();
      if (e.status === 413) {
        sendError(res, 413, e.message, e.headers);
        res.on("finish", () => req.destroy());
        return;
      }
      return sendError(res, e.status, e.message, e.headers);
    }
    // A bug: still answer in the JSON error shape.
    sendError(
      res,
      500,
      `emulator: unexpected error: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

function dispatch(
  ctx: ServerContext,
  op: SpecOperation,
  res: ServerResponse,
  input: {
    params: Record<string, string>;
    query: Record<string, unknown>;
    body: unknown;
    account: Account | undefined;
    ip: string;
  },
): void {
  const logsHandler = LOGS_HANDLERS[op.operationId];
  if (logsHandler) return sendJson(res, 200, logsHandler(ctx, input.query), {}, true);
  if (!input.account && op.auth !== "none")
    throw new HttpError(401, "authorization: HTTP Basic credentials are required");
  // An operation without authentication (the QStash IPv4 list) runs for a caller who owns nothing.
  const account = input.account ?? ANONYMOUS;
  const out = ctx.management.run(op.operationId, { ...input, account });
  sendJson(res, 200, out);
}
