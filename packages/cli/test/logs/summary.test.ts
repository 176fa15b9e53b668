// `api-clients logs summary`: counts over a window, read through every page. Its counts add up to
// the number of entries `logs export` writes for the same window, for every --by; distinct groups past
// the cap go to one "other" count; server text is shown safe; failures per hour add up too.
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { target } from "../support/emulator.js";

let emu: Emulator;
let cli: ReturnType<typeof target>;
const now = Date.now();
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 30_000, seed: 21, logsEndTime: now });
  cli = target(emu);
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

interface Summary {
  by: string;
  fromDate: number;
  toDate: number;
  total: number;
  groups: { key: string; count: number }[];
  other: { count: number; maxGroups: number };
  failures: { total: number; bucketMs: number; buckets: { start: number; count: number }[] };
}

const summary = async (...args: string[]) => {
  const result = await runCli(["logs", "summary", ...cli.base, ...args], cli.env);
  expect(result.code, result.stderr).toBe(0);
  return result;
};

/** The entries `logs export` writes for the window. */
async function exported(from: number, to: number) {
  const result = await runCli(
    ["logs", "export", ...cli.base, "--from", String(from), "--to", String(to), "--no-progress"],
    cli.env,
  );
  expect(result.code, result.stderr).toBe(0);
  return result.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("api-clients logs summary", () => {
  it("--by state over --from 3h: the counts add up to what logs export writes for the same window; so do state, url, topic and message", async () => {
    const first = JSON.parse(
      (await summary("--by", "state", "--from", "3h", "--json")).stdout,
    ) as Summary;
    expect(first.toDate - first.fromDate).toBe(3 * 3_600_000);
    const entries = await exported(first.fromDate, first.toDate);
    expect(entries.length).toBeGreaterThan(5_000);
    const sum = (s: Summary) => s.groups.reduce((n, g) => n + g.count, 0) + s.other.count;
    expect(first.total).toBe(entries.length);
    expect(sum(first)).toBe(entries.length);
    const byState = new Map<string, number>();
    for (const e of entries)
      byState.set(String(e["state"]), (byState.get(String(e["state"])) ?? 0) + 1);
    expect(Object.fromEntries(first.groups.map((g) => [g.key, g.count]))).toEqual(
      Object.fromEntries(byState),
    );
    const failures = entries.filter((e) => e["state"] === "ERROR" || e["state"] === "FAILED");
    expect(first.failures.total).toBe(failures.length);
    expect(first.failures.buckets.reduce((n, b) => n + b.count, 0)).toBe(failures.length);
    expect(first.failures.bucketMs).toBe(3_600_000);

    for (const by of ["url", "topic", "message"]) {
      const s = JSON.parse(
        (
          await summary(
            "--by",
            by,
            "--from",
            String(first.fromDate),
            "--to",
            String(first.toDate),
            "--json",
          )
        ).stdout,
      ) as Summary;
      expect(sum(s), by).toBe(entries.length);
    }
  });

  it("--by message: groups past the first 1,000 are counted under other, stated in the table", async () => {
    const json = JSON.parse((await summary("--by", "message", "--json")).stdout) as Summary;
    expect(json.groups).toHaveLength(1_000);
    expect(json.other.count).toBeGreaterThan(0);
    expect(json.other.maxGroups).toBe(1_000);
    expect(json.groups.reduce((n, g) => n + g.count, 0) + json.other.count).toBe(emu.logs.size);
    const table = await summary("--by", "message");
    expect(table.stdout).toMatch(/^\(other: groups after the first 1,000\)\s+[\d,]+\s+[\d.]+%/m);
  });

  it("the table: a bar per group, largest first, percentages, and a failure sparkline per hour", async () => {
    const result = await summary("--by", "state", "--from", "6h");
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^[\d,]+ entries from \S+ to \S+, by state$/);
    const rows = lines.slice(1).filter((l) => /^[A-Z_]+\s+[\d,]+\s+[\d.]+%\s+█/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const n = rows.map((r) => Number(r.split(/\s+/)[1]!.replaceAll(",", "")));
    expect(n).toEqual([...n].sort((a, b) => b - a));
    const at = lines.findIndex((l) => l.startsWith("Failures (ERROR, FAILED) per hour"));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^[▁▂▃▄▅▆▇█]{6,7}$/);
  });

  it("server text is made safe; a bad --by is a usage error", async () => {
    emu.logs.append([
      { messageId: "msg_e1", state: "FAILED", url: "https://x.example/\u001b]52;c;ZXZpbA==\u0007" },
    ]);
    const result = await summary("--by", "url", "--from", "1m");
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain("https://x.example/\\x1b]52;c;ZXZpbA==\\x07");
    const bad = await runCli(["logs", "summary", ...cli.base, "--by", "colour"], cli.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--by: expected one of state, url, topic, message/);
  });
});
