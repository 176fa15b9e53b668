// `logs export` to stdout when stdout fails (issue 24: 7, round 2): a device that is full (/dev/full),
// a redirect to a file that hits a size limit mid-export, a pipe whose reader closes it. Each exits 1
// with the system's reason and, once something was written, the cursor that resumes it; behind a
// redirect to a file the output ends with a whole entry, and resuming completes it with each entry once.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runCliInShell, startCli } from "../support/cli.js";
import { entryKey, useEmulator } from "../support/emulator.js";

const handles = useEmulator({ seedLogs: 3_000, seed: 7 });

const exportArgs = (...args: string[]) => [
  "logs",
  "export",
  ...handles.cli.base,
  "--no-progress",
  "--count",
  "100",
  ...args,
];
const keysOf = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => entryKey(JSON.parse(l) as never));
const resumeCursor = (stderr: string) =>
  /^Resume with: api-clients logs export .*--cursor (\S+)/m.exec(stderr)?.[1];
const heldEntries = (stderr: string) =>
  Number(/holds ([\d,]+) entries/.exec(stderr)?.[1]?.replaceAll(",", ""));

describe("logs export to stdout when writing fails (issue 24, 7)", () => {
  it("stdout is a full device (> /dev/full): exit 1, ENOSPC, nothing written", async () => {
    const result = await runCliInShell("exec CLI > /dev/full", exportArgs(), handles.cli.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^api-clients: cannot write to stdout: ENOSPC/m);
    expect(result.stderr).toMatch(/Nothing was written; run the same command again/);
    // Said, not thrown: no stack trace.
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("stdout redirected to a file that hits a size limit: ends with a whole entry, and the printed cursor resumes it with every entry once", async () => {
    const { emu } = handles;
    const dir = mkdtempSync(join(tmpdir(), "api-clients-stdout-"));
    try {
      const out = join(dir, "limited.ndjson");
      const failed = await runCliInShell(
        `ulimit -f 200 && exec CLI > '${out}'`, // 100 KiB
        exportArgs(),
        handles.cli.env,
      );
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr).toMatch(/^api-clients: cannot write to stdout: EFBIG/m);
      expect(failed.stderr).not.toMatch(/\n\s+at /);
      const text = readFileSync(out, "utf8");
      // Cut back to the last whole page, not left mid-line at the limit (102,400 bytes).
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThan(102_400);
      expect(text.endsWith("\n")).toBe(true);
      expect(keysOf(text)).toHaveLength(heldEntries(failed.stderr));
      const cursor = resumeCursor(failed.stderr);
      expect(cursor, failed.stderr).toBeDefined();

      const resumed = await runCli(exportArgs("--cursor", cursor!), handles.cli.env);
      expect(resumed.code, resumed.stderr).toBe(0);
      appendFileSync(out, resumed.stdout);
      const keys = keysOf(readFileSync(out, "utf8"));
      expect(keys).toHaveLength(emu.logs.size);
      expect(new Set(keys).size).toBe(emu.logs.size);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a pipe whose reader closes it: exit 1, EPIPE explained, and a cursor that resumes after what the pipe took", async () => {
    const { emu } = handles;
    emu.faults.add({ path: "/v2/logs", delayMs: 30, times: "always" });
    const running = startCli(exportArgs(), handles.cli.env);
    // The reader takes the first 1,000 bytes, then closes its end, as `| head -c 1000` does.
    await running.waitFor((out) => out.length >= 1_000, 50_000);
    running.child.stdout!.destroy();
    const received = running.stdout;
    const { code, stderr } = await running.done;
    emu.faults.clear();
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(
      /^api-clients: cannot write to stdout: EPIPE: the program reading the output has closed it/m,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
    const cursor = resumeCursor(stderr);
    expect(cursor, stderr).toBeDefined();
    const held = heldEntries(stderr);

    // What the reader got is the start of what the pipe took; the resumed export is the rest.
    const resumed = await runCli(exportArgs("--cursor", cursor!), handles.cli.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const rest = keysOf(resumed.stdout);
    expect(held + rest.length).toBe(emu.logs.size);
    const got = keysOf(received.slice(0, received.lastIndexOf("\n") + 1));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThanOrEqual(held);
    expect(new Set([...got, ...rest]).size).toBe(got.length + rest.length);
  }, 60_000);
});
