// `--limit` (how many entries a command prints) is separate from `--page-size` (how many each request
// asks for; `--count` is its deprecated spelling); `--since` is `--from`.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LogEntry } from "@api-clients/logs-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli } from "../support/cli.js";
import { entryKey, useEmulator } from "../support/emulator.js";

const now = Date.now();
const h = useEmulator({ seedLogs: 2_000, seed: 23, logsEndTime: now });
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "api-clients-limit-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => runCli(["logs", ...args, ...h.cli.base], h.cli.env);
const ndjson = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as LogEntry);

describe("--limit, --page-size, --count and --since", () => {
  it("export --limit 10 writes exactly 10 entries, with the default page size and with pages of 3", async () => {
    for (const pageSize of [[], ["--page-size", "3"]]) {
      const out = join(dir, `limit-${pageSize.length}.ndjson`);
      const result = await run("export", "--limit", "10", "--out", out, ...pageSize);
      expect(result.code).toBe(0);
      const written = ndjson(readFileSync(out, "utf8"));
      expect(written).toHaveLength(10);
      const all = ndjson((await run("export")).stdout);
      expect(all.length).toBeGreaterThan(10);
      expect(written.map(entryKey)).toEqual(all.slice(0, 10).map(entryKey));
    }
  });

  it("list --limit pages on until it has exactly that many; --page-size and the deprecated --count set the page", async () => {
    const limited = await run("list", "--json", "--limit", "25", "--page-size", "10");
    expect(limited.code).toBe(0);
    const page = JSON.parse(limited.stdout) as { events: LogEntry[]; cursor?: string };
    expect(page.events).toHaveLength(25);
    expect(page.cursor).toBeUndefined(); // the limit cut the third page: no cursor resumes there

    for (const flag of ["--page-size", "--count"]) {
      const one = await run("list", "--json", flag, "7");
      expect(one.code).toBe(0);
      expect((JSON.parse(one.stdout) as { events: LogEntry[] }).events).toHaveLength(7);
    }
    const help = await run("list", "--help");
    expect(help.stdout).toMatch(/--page-size <n>/);
    // Deprecated: still accepted (above), neither listed nor suggested.
    expect(help.stdout).not.toMatch(/--count/);
    expect(help.stdout).toMatch(/--limit <n>/);
  });

  it("--since is --from", async () => {
    const at = String(now - 30 * 60_000); // absolute: a relative bound moves between two runs
    const since = await run("export", "--since", at);
    const from = await run("export", "--from", at);
    expect(since.code).toBe(0);
    const a = ndjson(since.stdout);
    expect(a.length).toBeGreaterThan(0);
    expect(a.length).toBeLessThan(2_000);
    expect(a.map(entryKey)).toEqual(ndjson(from.stdout).map(entryKey));
    const both = await run("export", "--since", "30m", "--from", "1h");
    expect(both.code).toBe(2);
  });

  it("tail --limit exits 0 after exactly that many entries, the first --lines included", async () => {
    const tail = startCli(
      [
        "logs",
        "tail",
        ...h.cli.base,
        "--json",
        "--lines",
        "2",
        "--interval",
        "0.1",
        "--limit",
        "5",
      ],
      h.cli.env,
    );
    await tail.waitFor((out) => ndjson(out).length === 2);
    h.emu.logs.append(
      Array.from({ length: 6 }, (_, i) => ({ messageId: `msg_limit_${i}`, state: "DELIVERED" })),
    );
    const result = await tail.done;
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toHaveLength(5);
  });
});
