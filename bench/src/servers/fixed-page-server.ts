// A minimal keep-alive `node:http` server on 127.0.0.1 answering every request with the same small
// log page; run as a child process so its CPU time is not the client's. Prints `{"url"}` when ready.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The fixed body: one entry and a cursor, as `GET /v2/logs?count=1` would return it. */
export const FIXED_PAGE = JSON.stringify({
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
});
const BODY = Buffer.from(FIXED_PAGE);

const server = createServer({ keepAlive: true }, (req, res) => {
  req.resume();
  res.writeHead(200, { "content-type": "application/json", "content-length": BODY.length });
  res.end(BODY);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
