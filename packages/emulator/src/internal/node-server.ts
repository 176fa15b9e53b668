// The HTTP form: a `node:http` request becomes a WHATWG `Request` for the one handler, and its
// `Response` is written back. Only what a socket adds lives here: dropping the connection, draining or
// closing after an answer that did not read the body, and a method no `Request` can carry.
import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyBytes, ConnectionReset, errorAnswer, type Connection } from "./handler.js";

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
