// `logs export` when the output fails or the process is told to stop (issue 24: 7, 22): a full disk
// (/dev/full), a directory, a file-size limit mid-export, SIGTERM. Every exit says why and how to resume,
// and the file ends with a whole entry.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli, runCliInShell, startCli, waitForFile } from "../support/cli.js";
import { entryKey, target } from "../support/emulator.js";

let emu: Emulator;
let cli: ReturnType<typeof target>;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 3_000, seed: 7 });
  cli = target(emu);
  dir = mkdtempSync(join(tmpdir(), "api-clients-export-fail-"));
});
beforeEach(() => emu.reset());
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const exportArgs = (...args: string[]) => ["logs", "export", ...cli.base, "--no-progress", ...args];
const keysOf = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => entryKey(JSON.parse(l) as never));

describe("logs export when writing fails (issue 24, 7)", () => {
  it("a full disk (/dev/full): exit 1, the system's reason, and how to resume", async () => {
    const result = await runCli(exportArgs("--out", "/dev/full", "--count", "100"), cli.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot write \/dev\/full: ENOSPC/);
    expect(result.stderr).toMatch(/Nothing was written; run the same command again/);
  });

  it("a directory as --out: exit 1 with EISDIR, the directory untouched", async () => {
    const target = join(dir, "a-directory");
    mkdirSync(target);
    const result = await runCli(exportArgs("--out", target), cli.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot write .*a-directory: EISDIR/);
    expect(statSync(target).isDirectory()).toBe(true);
  });

  it("the disk fills mid-export: the file ends with a whole entry, and the printed cursor resumes it with every entry once", async () => {
    const out = join(dir, "limited.ndjson");
    const total = emu.logs.size;
    const failed = await runCliInShell(
      "ulimit -f 200 && exec CLI", // 512-byte blocks: 100 KiB, writes past it fail with EFBIG
      exportArgs("--out", out, "--count", "100"),
      cli.env,
    );
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/cannot write .*limited\.ndjson: EFBIG/);
    const cursor = /^Resume with: api-clients logs export .*--cursor (\S+) .*--append/m.exec(
      failed.stderr,
    )?.[1];
    expect(cursor, failed.stderr).toBeDefined();
    const text = readFileSync(out, "utf8");
    expect(text.length).toBeGreaterThan(0);
    expect(text.endsWith("\n")).toBe(true);
    const written = Number(/holds ([\d,]+) entries/.exec(failed.stderr)![1]!.replaceAll(",", ""));
    expect(keysOf(out)).toHaveLength(written);

    const resumed = await runCli(
      exportArgs("--out", out, "--count", "100", "--cursor", cursor!, "--append"),
      cli.env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const keys = keysOf(out);
    expect(keys).toHaveLength(total);
    expect(new Set(keys).size).toBe(total);
  }, 60_000);
});

describe("logs export stopped by SIGTERM (issue 24, 22)", () => {
  it("prints the resume point as Ctrl-C does, exit 143; resuming completes the export once", async () => {
    emu.faults.add({ path: "/v2/logs", delayMs: 50, times: "always" });
    const total = emu.logs.size;
    const out = join(dir, "term.ndjson");
    const running = startCli(exportArgs("--out", out, "--count", "100"), cli.env);
    // (waitFor looks at the output only when some arrives; the file is polled instead.)
    await waitForFile(out, 20_000);
    running.child.kill("SIGTERM");
    const stopped = await running.done;
    expect(stopped.code).toBe(143);
    expect(stopped.stderr).toMatch(/interrupted/);
    const cursor = /^Resume with: api-clients logs export .*--cursor (\S+) .*--append/m.exec(
      stopped.stderr,
    )?.[1];
    expect(cursor, stopped.stderr).toBeDefined();

    emu.faults.clear();
    const resumed = await runCli(
      exportArgs("--out", out, "--count", "100", "--cursor", cursor!, "--append"),
      cli.env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const keys = keysOf(out);
    expect(keys).toHaveLength(total);
    expect(new Set(keys).size).toBe(total);
  }, 60_000);
});
