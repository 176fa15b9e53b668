// Loaded into the CLI's own process by tail-memory.test.ts (`node --expose-gc --require heap-probe.cjs`):
// every 100 ms it collects garbage and appends what stays live (V8 heap plus buffers outside it, in
// bytes) to the file named by HEAP_PROBE_FILE.
"use strict";
const { appendFileSync } = require("node:fs");

const file = process.env.HEAP_PROBE_FILE;
if (file && typeof globalThis.gc === "function") {
  setInterval(() => {
    globalThis.gc();
    const { heapUsed, external } = process.memoryUsage();
    appendFileSync(file, `${heapUsed + external}\n`);
  }, 100).unref();
}
