// `pnpm test:runtimes` inside `pnpm test`: the runtime matrix (scripts/test-runtimes.mjs) runs once,
// and each runtime is one test here, failing with the checks it failed and why.
//
//   pnpm exec vitest run scripts/test/runtimes.test.ts
import { spawn } from "node:child_process";
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

const RUNTIMES = ["node", "bun", "deno", "workerd", "chromium"];
const CHECKS = [
  "one copy of the error classes",
  "an injected 429 on the first page is retried",
  "pagination across 3 pages",
  "create, list and delete a database",
  "an injected 429 is a RateLimitError",
  "an injected 503 is an InternalServerError",
];

let dir = "";
let report: Entry[] = [];
let output = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "runtimes-report-"));
  const file = join(dir, "report.json");
  const child = spawn(process.execPath, ["scripts/test-runtimes.mjs", "--json", file], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  await new Promise((resolve) => child.once("close", resolve));
  try {
    report = JSON.parse(readFileSync(file, "utf8")) as Entry[];
  } catch {
    throw new Error(`scripts/test-runtimes.mjs wrote no report:\n${output}`);
  }
}, 15 * 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the packed clients in every runtime (scripts/test-runtimes.mjs)", () => {
  it.each(RUNTIMES)("%s", (name) => {
    const entry = report.find((r) => r.name === name);
    expect(entry, output).toBeDefined();
    const failed = entry!.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
    expect({ failed, error: entry!.error }).toEqual({ failed: [], error: undefined });
    expect(entry!.checks.map((c) => c.name)).toEqual(CHECKS);
    expect(entry!.version).toMatch(new RegExp(`^${name} \\d+\\.\\d+`));
  });

  it("prints one line per runtime and the closing count", () => {
    for (const entry of report) expect(output).toContain(entry.version);
    expect(output).toMatch(/^\d+ passed, \d+ failed$/m);
  });
});
