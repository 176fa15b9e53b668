// A small hostile logs server on 127.0.0.1: each GET /v2/logs is answered by `answer`, which sees the
// request's query and how many requests came before it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HostileServer {
  url: string;
  /** Requests to /v2/logs so far. */
  readonly requests: number;
  close(): Promise<void>;
}

export type Answer = (
  query: URLSearchParams,
  n: number,
) => { status?: number; body: unknown; headers?: Record<string, string> };

export async function startHostile(answer: Answer): Promise<HostileServer> {
  let requests = 0;
  // Room for the megabyte cursors some tests send back in the query.
  const server: Server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const { status = 200, body, headers = {} } = answer(url.searchParams, requests++);
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A log entry as the service sends it. */
export const entry = (messageId: string, time = Date.now(), extra: object = {}) => ({
  time,
  messageId,
  state: "DELIVERED",
  url: "https://example.com/hook",
  ...extra,
});
