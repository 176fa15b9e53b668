import { createServer } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path exactly as sent on the request line, without the query. */
  path: string;
  /** Query parameters, decoded. */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Raw body text ("" when none). */
  body: string;
}

/** What the server answers to one request. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is sent as JSON. */
  body?: unknown;
}

/** A local `node:http` server on 127.0.0.1 that records requests and answers from a queue. */
export interface RecordingServer {
  /** Base URL, e.g. `http://127.0.0.1:50123`. */
  readonly url: string;
  /** Every request received so far, in order. */
  readonly requests: RecordedRequest[];
  /** Queues replies, used in order; once the queue is empty every request gets `200 "OK"`. */
  reply(...replies: Reply[]): void;
  /** Forgets the recorded requests and any queued reply. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a {@link RecordingServer} on an ephemeral port of 127.0.0.1. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = req.url ?? "/";
      const queryAt = raw.indexOf("?");
      requests.push({
        method: req.method ?? "",
        path: queryAt === -1 ? raw : raw.slice(0, queryAt),
        query: Object.fromEntries(new URLSearchParams(queryAt === -1 ? "" : raw.slice(queryAt))),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const { status = 200, headers = {}, body = "OK" } = queue.shift() ?? { body: "OK" };
      const text = typeof body === "string" ? body : JSON.stringify(body);
      const type = typeof body === "string" ? "text/plain" : "application/json";
      res.writeHead(status, { "content-type": type, ...headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => queue.push(...replies),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
