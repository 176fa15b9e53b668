// A minimal keep-alive `node:http` server on 127.0.0.1 answering each route with the same small body,
// run as a child process so that its CPU time is not the client's. Prints `{"url"}` when ready.
//
//   GET  /v2/logs             one-entry log page (as `GET /v2/logs?count=1` would return it)
//   GET  /v2/redis/databases  an array of one database
//   POST /v2/redis/database   the created database (the JSON request body is read first)
//
// For the fault rows it also plays a script: `POST /__bench/faults` with `[{ status, retryAfter } |
// { reset: true }, …]` answers the next requests with those faults, in order, then normally again;
// `GET /__bench/count` returns `{ "requests": n }`, the API requests since the script was set (so that
// attempts are counted at the server, not by the client under test).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const LOG_PAGE = Buffer.from(
  JSON.stringify({
    cursor: "1700000000000-2",
    events: [
      {
        time: 1_700_000_000_000,
        messageId: "msg_bench_1",
        state: "DELIVERED",
        url: "https://example.com/hook",
        topicName: "bench",
      },
    ],
  }),
);
const DATABASE = {
  database_id: "9d3c2a34-8a8f-4c53-9a53-6c1e3b1c0b01",
  database_name: "bench",
  database_type: "Pay as You Go",
  region: "global",
  primary_region: "us-east-1",
  read_regions: [],
  port: 6379,
  creation_time: 1_700_000_000,
  state: "active",
  endpoint: "bench-1.upstash.io",
  tls: true,
  eviction: false,
  auto_upgrade: false,
};
const DATABASES = Buffer.from(JSON.stringify([DATABASE]));
const CREATED = Buffer.from(JSON.stringify(DATABASE));
const NOT_FOUND = Buffer.from(JSON.stringify({ error: "not found" }));

/** One scripted fault. */
type Fault = { status: number; retryAfter?: string | number } | { reset: true };

let script: Fault[] = [];
let requests = 0;

function send(res: ServerResponse, status: number, body: Buffer, headers = {}): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": body.length,
    ...headers,
  });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

async function admin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (req.method === "POST" && path === "/__bench/faults") {
    script = JSON.parse((await readBody(req)) || "[]") as Fault[];
    requests = 0;
    send(res, 200, Buffer.from(JSON.stringify({ faults: script.length })));
  } else if (req.method === "GET" && path === "/__bench/count") {
    req.resume();
    send(res, 200, Buffer.from(JSON.stringify({ requests })));
  } else {
    req.resume();
    send(res, 404, NOT_FOUND);
  }
}

const server = createServer({ keepAlive: true }, (req, res) => {
  const path = (req.url ?? "/").split("?")[0]!;
  if (path.startsWith("/__bench/")) {
    void admin(req, res, path);
    return;
  }
  requests++;
  const fault = script.shift();
  if (fault !== undefined && "reset" in fault) {
    req.socket.destroy();
    return;
  }
  if (fault !== undefined) {
    req.resume();
    const body = Buffer.from(JSON.stringify({ error: `injected ${fault.status}` }));
    const headers =
      fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) };
    send(res, fault.status, body, headers);
    return;
  }
  if (req.method === "POST" && path === "/v2/redis/database") {
    // Read the JSON body as a real server would, then answer.
    void readBody(req).then((text) => {
      JSON.parse(text);
      send(res, 200, CREATED);
    });
    return;
  }
  req.resume();
  if (req.method === "GET" && path === "/v2/logs") send(res, 200, LOG_PAGE);
  else if (req.method === "GET" && path === "/v2/redis/databases") send(res, 200, DATABASES);
  else send(res, 404, NOT_FOUND);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
