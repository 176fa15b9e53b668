// One instance of a service: its own client (and, when given a Redis URL, its own Redis limiter) pages
// through the whole account. Like a service that has been running, it is warm before it starts: a few
// calls (on a client of its own, before the emulator's counts are reset) compile the request path, so
// the run measures the pacing rather than a cold start. Prints `ready`, starts on a line from stdin, then prints one JSON line
// { pages, entries, keys, firstMs, lastMs } (or { error }) and exits.
// argv: baseUrl token redisUrl|none count
import { createInterface } from "node:readline";
import { createLogsClient } from "@api-clients/logs-client";
import { createRedisRateLimiter } from "../../dist/index.js";

const [baseUrl, token, redisUrl, count] = process.argv.slice(2);
const rateLimiter = redisUrl === "none" ? undefined : createRedisRateLimiter({ url: redisUrl });
const logs = createLogsClient({
  token,
  baseUrl,
  ...(rateLimiter ? { rateLimiter } : {}),
  maxRetries: 10,
});
const warm = createLogsClient({ token, baseUrl, maxRetries: 10 });
for (let i = 0; i < 3; i++) await warm.list({ count: Number(count) });
const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
await new Promise((resolve) => lines.once("line", resolve));
lines.close();
const firstMs = Date.now();
let pages = 0;
let entries = 0;
const keys = new Set();
try {
  for await (const page of logs.pages({ count: Number(count) })) {
    pages++;
    entries += page.events.length;
    for (const e of page.events) keys.add(`${e.messageId}/${e.state}/${e.time}`);
  }
  process.stdout.write(
    `${JSON.stringify({ pages, entries, keys: keys.size, firstMs, lastMs: Date.now() })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: String(error?.message ?? error) })}\n`);
  process.exitCode = 1;
} finally {
  await rateLimiter?.close();
}
