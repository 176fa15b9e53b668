// The pager in a real terminal (tmux, 80×20): a table taller than the terminal goes to `$PAGER` (here a
// script that records what it was given); `--no-pager` and `--json` write to the terminal instead.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../support/cli.js";

/** A table row: it starts with the time, whole (2025-06-01T14:03:07.123+02:00) or narrow (06-01 14:03:07). */
const ROW = /^(\d{4}-)?\d\d-\d\d[T ]\d\d:/;
const hasTmux = spawnSync("sh", ["-c", "command -v tmux"]).status === 0;
const socket = `api-clients-pager-${process.pid}`;
const tmux = (...args: string[]) =>
  execFileSync("tmux", ["-u", "-L", socket, ...args], { encoding: "utf8" });

let emu: Emulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 80, seed: 4 });
  dir = mkdtempSync(join(tmpdir(), "api-clients-pager-"));
});
afterAll(async () => {
  if (hasTmux) spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasTmux)("the pager (tmux)", () => {
  it("pages a table taller than the terminal; not with --no-pager, not --json", async () => {
    const paged = join(dir, "paged.txt");
    const pager = join(dir, "pager.sh");
    writeFileSync(pager, `#!/bin/sh\ncat >> '${paged}'\necho "--- pager end" >> '${paged}'\n`, {
      mode: 0o755,
    });
    const cli = `'${process.execPath}' '${BIN}' --base-url '${emu.url}' logs list --limit 30`;
    const script = join(dir, "run.sh");
    writeFileSync(
      script,
      [
        "#!/bin/sh",
        `export QSTASH_TOKEN='${emu.credentials.logsToken}' PAGER='${pager}'`,
        "unset COLUMNS",
        cli,
        'echo "paged run: $?"',
        `${cli} --no-pager | tail -n 0`,
        `${cli} --no-pager > /dev/null; ${cli} --json messageId > /dev/null; ${cli} --no-pager`,
        'echo "all done"',
        "sleep 600",
      ].join("\n"),
      { mode: 0o755 },
    );
    tmux("new-session", "-d", "-s", "pager", "-x", "80", "-y", "20", script);
    const started = Date.now();
    const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "pager");
    while (!screen().includes("all done")) {
      if (Date.now() - started > 30_000) throw new Error(`timed out; screen:\n${screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(screen()).toContain("paged run: 0");
    expect(existsSync(paged)).toBe(true);
    // The pager got the first run's table, once: the later runs wrote to the terminal.
    const got = readFileSync(paged, "utf8");
    expect(got.match(/--- pager end/g)).toHaveLength(1);
    expect(got.split("\n").filter((l) => ROW.test(l.replace(/\x1b\[[0-9;]*m/g, "")))).toHaveLength(
      30,
    );
    // The --no-pager run's table is on the screen.
    expect(
      screen()
        .split("\n")
        .filter((l) => ROW.test(l)).length,
    ).toBeGreaterThanOrEqual(30);
  }, 45_000);
});
