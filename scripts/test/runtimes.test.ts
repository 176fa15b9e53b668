// `pnpm test:runtimes` inside `pnpm test`: the runtime matrix (scripts/test-runtimes.mjs) runs once,
// and each runtime is one test here, failing with the checks it failed and why (a tool that could not
// be downloaded in time included: the script bounds its downloads, and prints their progress here).
//
//   pnpm exec vitest run scripts/test/runtimes.test.ts
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/pack.mjs";

type Entry = {
  name: string;
  version: string;
  ok: boolean;
  ms: number;
  checks: { name: string; ok: boolean; detail: string }[];
  error?: string;
};

const RUNTIMES = ["node", "node22", "node24", "bun", "deno", "workerd", "chromium"];
const CHECKS = [
  "one copy of the error classes",
  "an injected 429 on the first page is retried",
  "pagination across 3 pages",
  "create, list and delete a database",
  "an injected 429 is a RateLimitError",
  "an injected 503 is an InternalServerError",
  "tracing channels",
];
/** Off the browser (which lacks `node:diagnostics_channel`), `@api-clients/otel` is checked too. */
const checksOf = (name: string) =>
  name === "chromium" ? CHECKS : [...CHECKS, "@api-clients/otel spans"];

let dir = "";
let report: Entry[] = [];
let output = "";
let child: ChildProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "runtimes-report-"));
  const file = join(dir, "report.json");
  // Its own process group: if this hook times out, afterAll stops the script and all it started.
  child = spawn(process.execPath, ["scripts/test-runtimes.mjs", "--json", file], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const closed = new Promise((resolve) => child!.once("close", resolve));
  child.stdout!.on("data", (chunk) => (output += chunk));
  // Download progress as it happens, not only once the script ends.
  child.stderr!.on("data", (chunk) => {
    output += chunk;
    process.stderr.write(chunk);
  });
  await closed;
  try {
    report = JSON.parse(readFileSync(file, "utf8")) as Entry[];
  } catch {
    throw new Error(`scripts/test-runtimes.mjs wrote no report:\n${output}`);
  }
  // The script's own bounds (15 minutes of downloads, 2 minutes per runtime) end it well before this.
}, 30 * 60_000);

const signalGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
};

afterAll(async () => {
  const pid = child?.pid;
  if (pid !== undefined && child!.exitCode === null && child!.signalCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    // SIGTERM first: the script then kills the downloads it runs in process groups of their own.
    signalGroup(pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the packed clients in every runtime (scripts/test-runtimes.mjs)", () => {
  it.each(RUNTIMES)("%s", (name) => {
    const entry = report.find((r) => r.name === name);
    expect(entry, output).toBeDefined();
    const failed = entry!.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
    expect({ failed, error: entry!.error }).toEqual({ failed: [], error: undefined });
    expect(entry!.checks.map((c) => c.name)).toEqual(checksOf(name));
    expect(entry!.version).toMatch(new RegExp(`^${name} \\d+\\.\\d+`));
    // node22 and node24 really are those Nodes (the version they print), not the one running this.
    const major = /^node(\d+)$/.exec(name)?.[1];
    if (major !== undefined) expect(entry!.version).toMatch(new RegExp(`^${name} ${major}\\.`));
  });

  it("prints one line per runtime and the closing count", () => {
    for (const entry of report) expect(output).toContain(entry.version);
    expect(output).toMatch(/^\d+ passed, \d+ failed$/m);
  });
});
