// The tool downloads of the tests (scripts/lib/tool-download.mjs) against a local node:http "registry"
// that stalls: each attempt is bounded and retried, progress is printed, the error names the download
// that stalled, what is installed is reused, and no process of a download outlives it: not on a
// timeout, not on success, not when the process that started it is stopped.
//
// SIGTERM is handled by the process that downloads; SIGKILL cannot be, and then the guard at the head of
// the download's process group sees its parent gone and kills the group.
//
// The fake installer (like npm) starts a child of its own that would run forever, writes both process
// ids, then fetches from the server; it counts its attempts in a file, so the server knows which
// attempt asks, whatever the timing.
//
//   pnpm exec vitest run scripts/test/tool-download.test.ts
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/pack.mjs";
import { ensureTool, readLedger } from "../lib/tool-download.mjs";

const INSTALLER = `
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const [dir, url] = process.argv.slice(2);
fs.appendFileSync(dir + "/attempts", "x");
const attempt = fs.readFileSync(dir + "/attempts", "utf8").length;
const forever = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
fs.appendFileSync(dir + "/pids", process.pid + "\\n" + forever.pid + "\\n");
fetch(url + "?attempt=" + attempt)
  .then((res) => res.text())
  .then((text) => {
    fs.writeFileSync(dir + "/installed", text);
    process.exit(0);
  });
`;

let server: Server;
let url = "";
/** Attempts the server answers; the others it never answers. */
let answer = new Set<number>();
const asked: number[] = [];
const held: ServerResponse[] = [];
let dir = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    const attempt = Number(new URL(req.url ?? "/", "http://x").searchParams.get("attempt"));
    asked.push(attempt);
    if (answer.has(attempt)) res.end("tool");
    else held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  url = `http://127.0.0.1:${address.port}/tool.tgz`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tool-download-"));
  writeFileSync(join(dir, "installer.cjs"), INSTALLER);
  answer = new Set();
  asked.length = 0;
});

afterEach(() => {
  for (const res of held.splice(0)) res.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const installed = () => existsSync(join(dir, "installed"));
const pids = () =>
  existsSync(join(dir, "pids"))
    ? readFileSync(join(dir, "pids"), "utf8").trim().split("\n").map(Number)
    : [];

/** Whether a process runs (a zombie, killed and waiting for its parent to reap it, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** Waits until every process is gone; fails naming the ones that are not after `ms`. */
async function gone(list: number[], ms = 10_000): Promise<number[]> {
  const until = Date.now() + ms;
  while (list.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return list.filter(alive);
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const tool = (overrides: Partial<Parameters<typeof ensureTool>[0]>, lines: string[]) =>
  ensureTool({
    name: "fake-tool@1.0.0",
    command: process.execPath,
    args: [join(dir, "installer.cjs"), dir, url],
    installed,
    timeoutMs: 2_000,
    attempts: 2,
    progressMs: 200,
    // Not the budget of a `pnpm test` this file may run in.
    ledger: "",
    log: (line: string) => lines.push(line),
    ...overrides,
  });

describe("tool downloads (scripts/lib/tool-download.mjs)", () => {
  it("reuses what is already installed, without running the installer", async () => {
    writeFileSync(join(dir, "installed"), "tool");
    const lines: string[] = [];
    expect(await tool({}, lines)).toBe("reused");
    expect(existsSync(join(dir, "attempts"))).toBe(false);
    expect(lines).toEqual([]);
  });

  it("a download that stalls is killed with all it started, retried, and named in the error", async () => {
    const lines: string[] = [];
    // 6 s: time enough for the installer to start and ask, even on a busy machine (a spawn of node
    // has taken 1–3 s under load).
    const error = await tool({ timeoutMs: 6_000 }, lines).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      /^download of fake-tool@1\.0\.0 failed \(`.+installer\.cjs .+`\): attempt 1 stalled: killed after \d+ s; attempt 2 stalled: killed after \d+ s/,
    );
    expect(readFileSync(join(dir, "attempts"), "utf8")).toBe("xx");
    expect(lines[0]).toBe("downloading fake-tool@1.0.0 (attempt 1 of 2, at most 6 s)");
    expect(lines[1]).toMatch(/^still downloading fake-tool@1\.0\.0 \(\d+ s\)$/);
    const second = lines.indexOf("downloading fake-tool@1.0.0 (attempt 2 of 2, at most 6 s)");
    expect(lines[second - 1]).toMatch(
      /^download of fake-tool@1\.0\.0 failed: attempt 1 stalled: killed after \d+ s$/,
    );
    expect(lines[second + 1]).toMatch(/^still downloading/);
    expect(pids().length).toBeGreaterThanOrEqual(2);
    expect(await gone(pids())).toEqual([]);
  });

  it("a retry after a stall downloads it, and leaves nothing running", async () => {
    answer = new Set([2]);
    const lines: string[] = [];
    expect(await tool({ timeoutMs: 6_000 }, lines)).toBe("downloaded");
    expect(readFileSync(join(dir, "attempts"), "utf8")).toBe("xx");
    expect(asked.at(-1)).toBe(2);
    expect(lines.at(-1)).toMatch(/^downloaded fake-tool@1\.0\.0 \(\d+ s\)$/);
    expect(pids().length).toBeGreaterThanOrEqual(2);
    expect(await gone(pids())).toEqual([]);
  });

  it("an installer that fails is retried, and its exit code reported", async () => {
    const lines: string[] = [];
    const error = await tool(
      { command: process.execPath, args: ["-e", "process.exit(3)"] },
      lines,
    ).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/attempt 1: exit 3 after \d+ s; attempt 2: exit 3 after \d+ s$/);
  });

  it("the downloads of one run share its budget: each attempt adds its time to the ledger", async () => {
    const ledger = join(dir, "ledger");
    const lines: string[] = [];
    const failing = { command: process.execPath, args: ["-e", "process.exit(3)"], ledger };
    await tool(failing, lines).catch(() => undefined);
    const entries = readLedger(ledger);
    expect(entries.map((e) => [e.outcome, e.name])).toEqual([
      ["failed", "fake-tool@1.0.0"],
      ["failed", "fake-tool@1.0.0"],
    ]);
    const times = entries.map((e) => e.ms);
    expect(times.every((ms) => ms > 0)).toBe(true);
    // What is left of the run's budget bounds the next attempt; none starts once it is spent.
    const total = times[0]! + times[1]!;
    await tool({ ...failing, timeoutMs: 600_000, runBudgetMs: total + 60_000 }, lines).catch(
      () => undefined,
    );
    expect(lines).toContain("downloading fake-tool@1.0.0 (attempt 1 of 2, at most 60 s)");
    const error = await tool({ ledger, runBudgetMs: 1 }, lines).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/no time left in the run's download budget/);
    expect(existsSync(join(dir, "attempts"))).toBe(false);
  });

  it("no attempt starts once the deadline has passed", async () => {
    const lines: string[] = [];
    const error = await tool({ deadline: Date.now() - 1 }, lines).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/no time left in the run's download budget/);
    expect(existsSync(join(dir, "attempts"))).toBe(false);
  });

  it.each(["SIGTERM", "SIGKILL"] as const)(
    "a run stopped by %s during a download takes the download with it",
    async (signal) => {
      // Another Node process downloads with a long bound, as `pnpm test` would; it is stopped meanwhile.
      const script = `
      import { ensureTool } from ${JSON.stringify(join(REPO_ROOT, "scripts", "lib", "tool-download.mjs"))};
      await ensureTool({
        name: "fake-tool@1.0.0",
        command: process.execPath,
        args: ${JSON.stringify([join(dir, "installer.cjs"), dir, url])},
        installed: () => false,
        timeoutMs: 600_000,
        ledger: "",
      });`;
      const runner = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      runner.stderr.on("data", (chunk) => (output += chunk));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        runner.once("exit", (_code, signal) => resolve(signal)),
      );
      await until(() => asked.length === 1, `the download's request (output: ${output})`);
      const running = pids();
      expect(running).toHaveLength(2);
      runner.kill(signal);
      expect(await exited).toBe(signal);
      expect(output).toMatch(/^downloading fake-tool@1\.0\.0 \(attempt 1 of 2, at most 600 s\)$/m);
      expect(await gone(running)).toEqual([]);
    },
  );
});
