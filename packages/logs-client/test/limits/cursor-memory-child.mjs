// Run by cursor-memory.test.ts in its own process, so its heap is the client's alone: pages through
// `pages` pages whose cursors are 1 MB each and reads the heap (after a full GC) before the first page
// and at the last, while the iteration and what it remembers are still alive. Prints JSON.
// Arguments: the base URL, then the number of pages.
import { createLogsClient } from "../../dist/index.js";

const [baseUrl, pages] = process.argv.slice(2);
// Node's fetch records a resource-timing entry named by the full URL for each request, and keeps the
// last 250: with 1 MB cursors in the URL that alone is ~250 MiB (documented in the README's
// "Reliability and limits"). Turned off here, so the reading is what the client itself keeps.
performance.setResourceTimingBufferSize(0);
const logs = createLogsClient({ token: "t", baseUrl, maxRetries: 0, timeoutMs: 120_000 });
await logs.list(); // loads and warms fetch, so its one-time cost is not counted
globalThis.gc();
const before = process.memoryUsage().heapUsed;
let after = before;
let count = 0;
for await (const _page of logs.pages({}, { prefetch: false })) {
  if (++count === Number(pages)) {
    globalThis.gc();
    after = process.memoryUsage().heapUsed;
    break;
  }
}
process.stdout.write(JSON.stringify({ pages: count, before, after, growth: after - before }));
