// Streamable HTTP, stateless (each POST gets a server of its own, so instances can sit behind a load
// balancer): bound to 127.0.0.1 by default, refusing a foreign `Origin` and a foreign `Host` (DNS
// rebinding), and asking for a bearer token whenever it listens beyond loopback.
import { timingSafeEqual } from "node:crypto";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServerOver, type ServerSettings, type Shared } from "./server.js";

/** Where and how the HTTP transport listens. */
export interface HttpOptions {
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** TCP port; 0 picks a free one. @default 8787 */
  port?: number;
  /** Bearer token every request must carry; required when `host` is not a loopback address. */
  token?: string;
  /** Origins allowed besides the loopback ones (`http://localhost:3000`, …). @default [] */
  allowedOrigins?: readonly string[];
  /** Largest request body accepted, bytes. @default 1048576 */
  maxBodyBytes?: number;
}

/** A listening HTTP transport. */
export interface ServedHttp {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8787/mcp`. */
  readonly url: string;
  /** Resolves once the server has stopped. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Whether `host` (an interface or a URL's hostname) is a loopback one. */
export const isLoopback = (host: string) =>
  LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Whether `origin` is a loopback origin or one of `allowed`. */
function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && isLoopback(url.hostname);
  } catch {
    return false;
  }
}

function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

const tooLarge = (max: number) =>
  `Request too large: the body is over ${max} bytes (--max-body-bytes)`;

/**
 * The request's body, or `undefined` as soon as it passes `max` bytes (what came is dropped and the
 * rest is not read: the connection is closed after the 413).
 */
function readBounded(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off("data", onData);
        req.off("end", onEnd);
        req.pause();
        chunks.length = 0;
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", reject);
  });
}

/** Serves MCP over Streamable HTTP at `/mcp`. */
export async function serveHttp(
  shared: Shared,
  settings: ServerSettings,
  options: HttpOptions = {},
): Promise<ServedHttp> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token;
  const allowed = options.allowedOrigins ?? [];
  const maxBody = options.maxBodyBytes ?? 1_048_576;
  if (!isLoopback(host) && (token === undefined || token === "")) {
    throw new Error(
      `listening on ${host} (beyond loopback) needs a bearer token: pass --http-token or set MCP_HTTP_TOKEN`,
    );
  }
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowed))
      return refuse(res, 403, "Forbidden: this Origin may not use the server");
    const hostHeader = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (isLoopback(host) && !isLoopback(hostHeader))
      return refuse(res, 403, "Forbidden: Host is not a loopback name");
    if (token !== undefined && !tokenMatches(req.headers.authorization, token))
      return refuse(res, 401, "Unauthorized: send Authorization: Bearer <token>", {
        "www-authenticate": "Bearer",
      });
    if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp")
      return refuse(res, 404, "Not found: the endpoint is /mcp");
    if (req.method !== "POST")
      return refuse(res, 405, "Method not allowed: this server is stateless (POST only)", {
        allow: "POST",
      });
    if (Number(req.headers["content-length"] ?? 0) > maxBody)
      return refuse(res, 413, tooLarge(maxBody), { connection: "close" });
    // Read here, bounded whatever the framing (a chunked body has no Content-Length).
    const body = await readBounded(req, maxBody);
    if (body === undefined) {
      // The rest of the body is not read: the connection ends with the answer.
      res.once("finish", () => req.destroy());
      return refuse(res, 413, tooLarge(maxBody), { connection: "close" });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32700, message: "Parse error" },
          id: null,
        }),
      );
    }
    // Stateless: no elicitation (its answer would reach another instance); two-step tokens instead.
    const server = createServerOver(shared, settings, { canElicit: false });
    // No session id generator: stateless.
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed);
  };
  const http = createHttpServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, "Internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 8787, host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const closed = new Promise<void>((resolve) => http.once("close", () => resolve()));
  return {
    url: `http://${shown}:${address.port}/mcp`,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
