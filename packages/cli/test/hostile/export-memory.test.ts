// `logs export` keeps its memory bounded when every page hands out a new megabyte cursor, measured in the
// CLI's own process (`--expose-gc`, the heap after a full collection every 100 ms, heap-probe.cjs).
// Before the command line turned off Node's resource timing buffer for every command (only `logs tail`
// did), each request's URL, the cursor in it, stayed in that buffer: 1 MiB a page, up to 250 of them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exportArgs } from "../support/cli.js";
import { heapSamples, spawnProbed } from "./heap.js";
import { entry, startHostile } from "./server.js";

const MiB = 1024 * 1024;
const PAGES = 120;
/** One page's entry and cursor, and what the export holds while it writes a page: far below 120 MiB. */
const MAX_GROWTH = 32 * MiB;

const dir = mkdtempSync(join(tmpdir(), "export-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("logs export against a server whose every cursor is 1 MiB", () => {
  it("writes every page, and its heap does not keep the cursors it has sent", async () => {
    const time = Date.now() - 60_000;
    const server = await startHostile((_query, n) => ({
      body: {
        events: [entry(`msg_${n}`, time - n)],
        ...(n + 1 < PAGES ? { cursor: `c${n}_${"u".repeat(MiB)}` } : {}),
      },
    }));
    try {
      const heapFile = join(dir, "export.heap");
      const out = join(dir, "export.ndjson");
      const child = spawnProbed(
        exportArgs(server.url, "--out", out),
        { QSTASH_TOKEN: "export-token" },
        heapFile,
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));

      expect(code, stderr).toBe(0);
      expect(server.requests).toBe(PAGES);
      const ids = readFileSync(out, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { messageId: string }).messageId);
      expect(ids).toEqual(Array.from({ length: PAGES }, (_, n) => `msg_${n}`));

      const samples = heapSamples(heapFile);
      expect(samples.length).toBeGreaterThan(3);
      const growth = Math.max(...samples) - Math.min(...samples.slice(0, 3));
      console.log(
        `export of ${PAGES} pages with 1 MiB cursors: heap grew at most ${(growth / MiB).toFixed(1)} MiB ` +
          `over ${samples.length} samples`,
      );
      expect(growth).toBeLessThan(MAX_GROWTH);
    } finally {
      await server.close();
    }
  }, 120_000);
});
