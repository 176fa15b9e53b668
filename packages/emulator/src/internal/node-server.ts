// The HTTP form: a `node:http` request becomes a WHATWG `Request` for the one handler, and its
// `Response` is written back. Only what a socket adds lives here: dropping the connection, draining or
// closing after an answer that did not read the body, and a method no `Request` can carry.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyBytes, ConnectionReset, errorAnswer } from "./answers.js";
import type { Connection } from "./handler.js";
import { errorBody } from "./http-error.js";

/**
 * The body of an incoming message as a stream read only on demand: what the handler never reads
 * stays in the socket, to be drained (or the connection closed) after the answer.
 */
function lazyBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
    },
    { highWaterMark: 0 },
  );
}

/** Builds the `Request` of an incoming message, or undefined when its method cannot be one. */
function toRequest(req: IncomingMessage): Request | undefined {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2)
    headers.append(raw[i] as string, raw[i + 1] as string);
  const method = req.method ?? "GET";
  const url = `http://${req.socket.localAddress?.includes(":") ? `[${req.socket.localAddress}]` : (req.socket.localAddress ?? "127.0.0.1")}:${req.socket.localPort ?? 80}${(req.url ?? "/").startsWith("/") ? req.url : `/${req.url}`}`;
  const hasBody = method !== "GET" && method !== "HEAD";
  try {
    return new Request(url, {
      method,
      headers,
      ...(hasBody ? { body: lazyBody(req), duplex: "half" } : {}),
    } as RequestInit);
  } catch {
    return undefined;
  }
}

/** Writes a `Response` to the socket: its bytes when the handler built them, else its stream. */
async function write(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!req.complete) {
    // The handler answered without reading the whole body: close after a refusal that says so
    // (413), else read and drop the rest so the connection can be reused.
    if (response.headers.get("connection") === "close") res.on("finish", () => req.destroy());
    else req.resume();
  }
  const bytes = bodyBytes.get(response);
  if (bytes !== undefined || response.body === null) {
    res.end(bytes);
    return;
  }
  // A streamed body (a slow or truncated answer): an error of the stream drops the connection.
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) return;
      res.write(chunk);
    }
    res.end();
  } catch {
    req.socket.destroy();
  }
}

/**
 * Serves one `node:http` request through `handle`: a `ConnectionReset` destroys the socket without an
 * answer.
 */
export async function serveNode(
  handle: (request: Request, conn: Connection) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = toRequest(req);
  const conn: Connection = { remoteAddress: req.socket.remoteAddress ?? "" };
  try {
    const response =
      request === undefined
        ? errorAnswer(405, `method: ${req.method ?? ""} is not allowed`)
        : await handle(request, conn);
    await write(response, req, res);
  } catch (e) {
    if (e instanceof ConnectionReset) req.socket.destroy();
    else if (!res.headersSent) {
      await write(errorAnswer(500, "emulator: unexpected error"), req, res);
    } else req.socket.destroy();
  }
}

/** How long a connection answered with a 400 for a malformed or timed-out request may linger. */
const CLIENT_ERROR_LINGER_MS = 1_000;

/** The socket options of `startEmulator()` (timeouts in milliseconds). */
export interface ListenOptions {
  host: string;
  port: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** Serves `handle` over `node:http` and resolves once it listens, with its port and how to close it. */
export async function listen(
  handle: (request: Request, conn: Connection) => Promise<Response>,
  options: ListenOptions,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer({ keepAlive: true });
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = options.headersTimeoutMs;
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
  server.on("request", (req, res) => void serveNode(handle, req, res));
  server.on("clientError", (_err, socket) => {
    if (socket.writable) {
      const body = JSON.stringify(errorBody(400, "request: malformed HTTP request"));
      socket.end(
        `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
      // Destroyed at most CLIENT_ERROR_LINGER_MS later, whether or not the client reads the answer.
      const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
      socket.once("close", () => clearTimeout(timer));
    } else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
