// `logs export` encodes each page straight into one reused buffer: entries in any script (2-, 3- and
// 4-byte UTF-8), a page far larger than the buffer's first 64 KiB, pages that shrink after a large
// one, and the CSV header land in the file and on stdout exactly as JSON.stringify and the CSV rules
// write them, each entry once, in order.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvRow } from "../../src/output/csv.js";
import { exportArgs, runCli } from "../support/cli.js";
import { entry, startHostile, type HostileServer } from "./server.js";

const time = Date.now() - 60_000;
// Page sizes in entries: one small, one of about 600 KiB (past the first 64 KiB), then small ones.
const PAGES = [3, 900, 1, 40];
const TEXTS = ["plain ascii", "é ü ß", "日本語のテキスト", "emoji 🎉🚀", "mixed a€𝄞b"];
const pages = PAGES.map((size, p) =>
  Array.from({ length: size }, (_, i) =>
    entry(`msg_${p}_${i}`, time - p * 1_000 - i, {
      label: TEXTS[(p + i) % TEXTS.length],
      body: TEXTS[i % TEXTS.length]!.repeat(1 + (i % 7)) + "x".repeat(p === 1 ? 600 : 0),
    }),
  ),
);
const all = pages.flat();

let server: HostileServer;
const dir = mkdtempSync(join(tmpdir(), "export-bytes-"));
beforeAll(async () => {
  // The page is the cursor's number, so that each test's export starts at the first.
  server = await startHostile((query) => {
    const n = Number(query.get("cursor")?.slice(1) ?? 0);
    return {
      body: { events: pages[n] ?? [], ...(n + 1 < pages.length ? { cursor: `c${n + 1}` } : {}) },
    };
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const args = (...more: string[]) => exportArgs(server.url, ...more);
const env = { QSTASH_TOKEN: "bytes-token" };

describe("logs export writes every page's bytes exactly", () => {
  it("NDJSON to --out: each entry as JSON.stringify writes it, in order", async () => {
    const out = join(dir, "all.ndjson");
    const result = await runCli(args("--out", out), env);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(all.map((e) => JSON.stringify(e) + "\n").join(""));
  });

  it("NDJSON to stdout (a pipe): the same bytes", async () => {
    const result = await runCli(args(), env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(all.map((e) => JSON.stringify(e) + "\n").join(""));
  });

  it("CSV to --out: the header once, then every row", async () => {
    const out = join(dir, "all.csv");
    const columns = ["messageId", "label", "body"];
    const result = await runCli(args("--out", out, "--columns", columns.join(",")), env);
    expect(result.code, result.stderr).toBe(0);
    const rows = all.map((e) => csvRow(columns.map((c) => (e as Record<string, unknown>)[c])));
    expect(readFileSync(out, "utf8")).toBe(columns.join(",") + "\r\n" + rows.join(""));
  });
});
