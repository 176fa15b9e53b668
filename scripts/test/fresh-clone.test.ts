// A newcomer's first minutes: in a copy of the working tree (tracked and new files, as a clone would
// have them), `pnpm install && pnpm start` print no warning and no build-approval box; and Ctrl-C on
// `pnpm emulator` stops it with exit code 0, without pnpm's `ELIFECYCLE` line.
//
//   pnpm exec vitest run scripts/test/fresh-clone.test.ts
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanEnv } from "../lib/clean-env.mjs";
import { copyWorkspace, REPO_ROOT } from "../release/workspace-copy.mjs";

type Result = { code: number | null; signal: NodeJS.Signals | null; output: string };

/**
 * Runs a command in its own process group. With `interruptWhen`, sends SIGINT to the whole group (as
 * a terminal's Ctrl-C does) once the output matches it.
 */
function run(
  command: string,
  args: string[],
  cwd: string,
  { interruptWhen, timeoutMs = 8 * 60_000 }: { interruptWhen?: RegExp; timeoutMs?: number } = {},
): Promise<Result> {
  const child = spawn(command, args, {
    cwd,
    env: cleanEnv(REPO_ROOT, { CI: "true" }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  let interrupted = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (interruptWhen && !interrupted && interruptWhen.test(output)) {
      interrupted = true;
      process.kill(-child.pid!, "SIGINT");
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/** Lines a newcomer would take for a problem: pnpm's warnings and its build-approval box. */
const WARNING = /^.*(\bWARN\b|approve-builds|Ignored build scripts).*$/gm;

describe("fresh clone", () => {
  let work = "";
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it(
    "pnpm install && pnpm start print no warning and no build-approval box",
    async () => {
      work = realpathSync(mkdtempSync(join(tmpdir(), "fresh-clone-")));
      const repo = join(work, "repo");
      copyWorkspace(repo);

      const install = await run("pnpm", ["install"], repo);
      expect(install.output.match(WARNING) ?? []).toEqual([]);
      expect(install.code, install.output).toBe(0);

      const start = await run("pnpm", ["start"], repo);
      expect(start.output.match(WARNING) ?? []).toEqual([]);
      expect(start.output).toMatch(
        /Emulator at http:\/\/127\.0\.0\.1:\d+ with 100,000 log entries/,
      );
      expect(start.code, start.output).toBe(0);
    },
    10 * 60_000,
  );

  it(
    "Ctrl-C on `pnpm emulator` exits 0 without ELIFECYCLE",
    async () => {
      const result = await run(
        "pnpm",
        ["emulator", "--port", "0", "--logs-token", "dev", "--account", "alice@example.com:key"],
        REPO_ROOT,
        { interruptWhen: /^export UPSTASH_API_KEY=key$/m, timeoutMs: 3 * 60_000 },
      );
      expect(result.output).toContain("export QSTASH_TOKEN=dev");
      expect(result.output).not.toContain("ELIFECYCLE");
      expect(result.signal).toBe(null);
      expect(result.code, result.output).toBe(0);
    },
    4 * 60_000,
  );
});
