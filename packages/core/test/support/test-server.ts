/**
 * A fault-injecting HTTP server on 127.0.0.1 for tests: script responses (status, headers, body, delay,
 * reset, hang) and inspect the requests it received. Real sockets, no fetch mocking.
 *
 * @example
 * const server = await startTestServer();
 * server.enqueue({ status: 503 }, { status: 200, body: { ok: true } });
 * await fetch(`${server.url}/x`);
 * expect(server.requests).toHaveLength(1);
 * await server.close();
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach } from "vitest";

/** One scripted reply; every field is optional (the default is `200` with an empty body). */
export interface ScriptedResponse {
  /** Status code. @default 200 */
  status?: number;
  /** Response headers (a `content-length` is added for the body unless given). */
  headers?: Record<string, string | readonly string[]>;
  /** Body: a string or bytes as-is, anything else as JSON (with `content-type: application/json`). */
  body?: unknown;
  /** Wait before sending anything, in milliseconds. @default 0 */
  delayMs?: number;
  /** Send the headers (with the full `content-length`) and this many body bytes, then reset the socket. */
  resetAfterBytes?: number;
  /** Send the headers (with the full `content-length`) and this many body bytes, then stall forever. */
  stallAfterBytes?: number;
  /** Destroy the socket without sending any response. */
  reset?: boolean;
  /** Never answer; the request stays open until the client gives up or the server closes. */
  hang?: boolean;
  /** Send the body one byte every this many milliseconds (a dripping body). */
  dripIntervalMs?: number;
  /**
   * Send a body of this many bytes (spaces), generated while it is sent and never held whole, with
   * backpressure; `body` is ignored. It stops when the client closes the connection.
   */
  streamBytes?: number;
  /** With `streamBytes`: send no `content-length` (chunked), so only the bytes tell the size. */
  chunked?: boolean;
}

/** Computes the reply for a request when the queue is empty. */
export type Responder = (request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>;

/** A request as the server saw it. */
export interface RecordedRequest {
  /** HTTP method, e.g. `GET`. */
  readonly method: string;
  /** Path and query as sent, e.g. `/v2/logs?count=10`. */
  readonly url: string;
  /** Path without the query. */
  readonly path: string;
  /** Parsed query string. */
  readonly query: URLSearchParams;
  /** Request headers (lower-case names). */
  readonly headers: IncomingHttpHeaders;
  /** Request body as UTF-8 text. */
  readonly body: string;
  /** Request body as the bytes received. */
  readonly bytes: Uint8Array;
  /** Header names and values in the order received (`IncomingMessage.rawHeaders`). */
  readonly rawHeaders: readonly string[];
  /** When the request (with its body) had fully arrived, as `performance.now()` milliseconds. */
  readonly receivedAt: number;
  /** Whether the exchange is over (response sent, or connection closed). */
  readonly finished: boolean;
  /** Whether the client closed the connection before the response was complete. */
  readonly closedEarly: boolean;
  /** Settles when the exchange is over. */
  readonly done: Promise<void>;
}

/** A running test server. */
export interface TestServer {
  /** Base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string;
  /** Every request received so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Queues replies, used in order, one per request; when empty the handler (or a 418) answers. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** Sets the replier used when the queue is empty (`undefined` restores the default 418). */
  setHandler(handler: Responder | undefined): void;
  /** Number of requests whose exchange is not over yet. */
  inFlight(): number;
  /**
   * Resolves once at least `count` requests have arrived; rejects after `timeoutMs` (default 10 s: a
   * bound only so that a request that never comes fails with a message, generous for busy machines).
   */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Forgets recorded requests and queued replies. */
  reset(): void;
  /** Closes every connection (releasing hung requests) and stops the server. */
  close(): Promise<void>;
}

interface MutableRecord extends RecordedRequest {
  finished: boolean;
  closedEarly: boolean;
}

const DEFAULT_REPLY: ScriptedResponse = {
  status: 418,
  body: { error: "test server: no scripted response for this request" },
};

function encodeBody(
  body: unknown,
  headers: Record<string, string | readonly string[]>,
): Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof Uint8Array) return body;
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  if (!hasType) headers["content-type"] = "application/json";
  return Buffer.from(JSON.stringify(body), "utf8");
}

async function reply(
  res: ServerResponse,
  script: ScriptedResponse,
  isClosed: () => boolean,
): Promise<void> {
  if (script.delayMs !== undefined && script.delayMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, script.delayMs));
  }
  if (isClosed()) return;
  if (script.hang === true) return;
  if (script.reset === true) {
    res.socket?.destroy();
    return;
  }
  const headers: Record<string, string | readonly string[]> = { ...script.headers };
  if (script.streamBytes !== undefined) {
    if (script.chunked !== true) headers["content-length"] = String(script.streamBytes);
    res.writeHead(script.status ?? 200, headers as Record<string, string | string[]>);
    await streamFiller(res, script.streamBytes, isClosed);
    return;
  }
  const body = encodeBody(script.body, headers);
  const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === "content-length");
  if (!hasLength) headers["content-length"] = String(body?.byteLength ?? 0);
  res.writeHead(script.status ?? 200, headers as Record<string, string | string[]>);
  if (script.resetAfterBytes !== undefined) {
    res.write(body?.subarray(0, script.resetAfterBytes) ?? "", () => res.socket?.destroy());
    return;
  }
  if (script.stallAfterBytes !== undefined) {
    res.write(body?.subarray(0, script.stallAfterBytes) ?? "");
    return;
  }
  if (script.dripIntervalMs !== undefined && body !== undefined) {
    for (let i = 0; i < body.byteLength; i++) {
      if (isClosed()) return;
      res.write(body.subarray(i, i + 1));
      await new Promise((resolve) => setTimeout(resolve, script.dripIntervalMs));
    }
    if (!isClosed()) res.end();
    return;
  }
  res.end(body);
}

/** Writes `total` bytes of spaces in 64 KiB chunks, waiting for `drain`, until done or closed. */
async function streamFiller(
  res: ServerResponse,
  total: number,
  isClosed: () => boolean,
): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  while (sent < total) {
    if (isClosed()) return;
    const size = Math.min(chunk.byteLength, total - sent);
    sent += size;
    if (!res.write(size === chunk.byteLength ? chunk : chunk.subarray(0, size))) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
  if (!isClosed()) res.end();
}

/**
 * Starts a test server on 127.0.0.1 with an OS-chosen port.
 *
 * @param options.handler replier used when the queue of scripted responses is empty
 */
export async function startTestServer(options: { handler?: Responder } = {}): Promise<TestServer> {
  const requests: MutableRecord[] = [];
  const queue: ScriptedResponse[] = [];
  let handler: Responder | undefined = options.handler;
  const waiters = new Set<() => void>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let closed = false;
    let resolveDone!: () => void;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    const script = queue.shift();
    res.on("close", () => {
      closed = true;
      record.finished = true;
      if (!res.writableFinished) record.closedEarly = true;
      resolveDone();
    });
    const rawUrl = req.url ?? "/";
    const parsed = new URL(rawUrl, "http://127.0.0.1");
    const record: MutableRecord = {
      method: req.method ?? "GET",
      url: rawUrl,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      body: "",
      bytes: new Uint8Array(0),
      rawHeaders: req.rawHeaders,
      receivedAt: 0,
      finished: false,
      closedEarly: false,
      done,
    };
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const complete: MutableRecord = Object.assign(record, {
        body: bytes.toString("utf8"),
        bytes,
        receivedAt: performance.now(),
      });
      requests.push(complete);
      for (const wake of waiters) wake();
      void (async () => {
        const chosen = script ?? (handler === undefined ? DEFAULT_REPLY : await handler(complete));
        await reply(res, chosen, () => closed);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(599);
        res.end(String(error));
      });
    });
  });
  // Let keep-alive sockets linger like a real server, but never hold the process.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...responses) => void queue.push(...responses),
    setHandler: (next) => void (handler = next),
    inFlight: () => requests.filter((request) => !request.finished).length,
    waitForRequests(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        const check = (): void => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/**
 * The test server of the calling test file: a fresh one for each test (no recorded request, no queued
 * reply, no handler), closed after it. A request a test leaves behind, such as one its short timer cut
 * off before the server had read it, cannot reach the next test's server and take its reply.
 * Use it inside tests and `beforeEach` hooks.
 *
 * @example
 * const server = useTestServer();
 * it("…", async () => { server.enqueue({ status: 503 }); … });
 */
export function useTestServer(): TestServer {
  let current: TestServer | undefined;
  beforeEach(async () => {
    current = await startTestServer();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const server = (): TestServer => {
    if (current === undefined) throw new Error("the test server starts in beforeEach");
    return current;
  };
  return {
    get url() {
      return server().url;
    },
    get requests() {
      return server().requests;
    },
    enqueue: (...responses) => server().enqueue(...responses),
    setHandler: (handler) => server().setHandler(handler),
    inFlight: () => server().inFlight(),
    waitForRequests: (count, timeoutMs) => server().waitForRequests(count, timeoutMs),
    reset: () => server().reset(),
    close: () => server().close(),
  };
}

/** Returns a `http://127.0.0.1:<port>` URL where nothing listens, so connecting is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
