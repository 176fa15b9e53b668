// Run by memory.test.ts in its own process, so its RSS is the client's alone: warms fetch up with one
// small page, then lists one page whose body is huge, sampling RSS while the call runs. Prints JSON.
// Arguments: the base URL, then maxResponseBytes (optional; the client's default when absent).
import { createLogsClient } from "../../dist/index.js";

const [baseUrl, limit] = process.argv.slice(2);
const logs = createLogsClient({
  token: "t",
  baseUrl,
  maxRetries: 0,
  timeoutMs: 120_000,
  ...(limit === undefined ? {} : { maxResponseBytes: Number(limit) }),
});
await logs.list(); // loads and warms fetch, so its one-time cost is not counted
globalThis.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 2);
let error;
try {
  await logs.list();
} catch (caught) {
  error = { name: caught.name, message: caught.message };
}
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
process.stdout.write(JSON.stringify({ before, peak, growth: peak - before, error }));
