// One instance of a service for the scale proof: its own logs client with its own Redis limiter
// (or none), warm before it starts. Prints `ready`, starts on a line from stdin, then calls
// `logs.list({ count: 1 })` with `inFlight` calls at a time until `durationMs` have passed, and prints
// one JSON line: { calls, errors, firstMs, lastMs, answeredAt: [Unix ms of each answered call],
// warnings: [{ at, message }] } and exits.
// argv: baseUrl token redisUrl|none durationMs inFlight
import { createInterface } from "node:readline";
import { createLogsClient } from "@api-clients/logs-client";
import { createRedisRateLimiter } from "../../dist/index.js";

const [baseUrl, token, redisUrl, duration, inFlight] = process.argv.slice(2);
const rateLimiter = redisUrl === "none" ? undefined : createRedisRateLimiter({ url: redisUrl });
const warnings = [];
const logs = createLogsClient({
  token,
  baseUrl,
  maxRetries: 10,
  ...(rateLimiter ? { rateLimiter } : {}),
  logger: (event) => {
    if (event.type === "warning") warnings.push({ at: Date.now(), message: event.message });
  },
});
const warm = createLogsClient({ token, baseUrl, maxRetries: 10 });
for (let i = 0; i < 3; i++) await warm.list({ count: 1 });
const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
await new Promise((resolve) => lines.once("line", resolve));
lines.close();
const firstMs = Date.now();
const until = firstMs + Number(duration);
let calls = 0;
const errors = {};
const answeredAt = [];
async function loop() {
  while (Date.now() < until) {
    calls++;
    try {
      await logs.list({ count: 1 });
      answeredAt.push(Date.now());
    } catch (error) {
      const name = error?.name ?? "Error";
      errors[name] = (errors[name] ?? 0) + 1;
    }
  }
}
await Promise.all(Array.from({ length: Number(inFlight) }, loop));
process.stdout.write(
  `${JSON.stringify({ calls, errors, firstMs, lastMs: Date.now(), answeredAt, warnings })}\n`,
);
await rateLimiter?.close();
