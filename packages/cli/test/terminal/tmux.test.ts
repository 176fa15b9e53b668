// `api-clients` in a real terminal (`logs tail`, the question before a deletion): tmux (Debian's
// package, installed here when missing) runs it in a detached session; capture-pane reads the screen,
// send-keys types and presses Ctrl-C.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createManagementClient } from "@api-clients/management-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../support/cli.js";

const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

/** tmux, installed with apt when missing; or why it cannot be. */
function ensureTmux(): string | undefined {
  if (has("tmux")) return undefined;
  if (!has("apt-get")) return "tmux is not installed and apt-get is not available to install it";
  const install = () =>
    spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "tmux"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  if (install().status !== 0) {
    spawnSync("apt-get", ["update"], { stdio: "ignore" });
    install();
  }
  return has("tmux") ? undefined : "tmux is not installed and `apt-get install -y tmux` failed";
}

const skipReason = ensureTmux();
const socket = `api-clients-test-${process.pid}`;
const tmux = (...args: string[]) =>
  execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
const screen = (session = "tail") => tmux("capture-pane", "-p", "-t", session);

async function until(
  test: () => boolean,
  what: string,
  timeoutMs = 15_000,
  session = "tail",
): Promise<void> {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out waiting for ${what}; screen:\n${screen(session)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let emu: Emulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 500, seed: 9 });
  dir = mkdtempSync(join(tmpdir(), "api-clients-tmux-"));
});
afterAll(async () => {
  if (!skipReason) spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipReason !== undefined)(
  `in a terminal (tmux)${skipReason ? `: skipped, ${skipReason}` : ""}`,
  () => {
    it("shows the table, adds rows as entries arrive, and exits 130 on Ctrl-C", async () => {
      // The token goes through a script's environment, not the command line tmux shows.
      const script = join(dir, "tail.sh");
      writeFileSync(
        script,
        [
          "#!/bin/sh",
          `export QSTASH_TOKEN='${emu.credentials.logsToken}'`,
          "unset NO_COLOR FORCE_COLOR",
          // Ctrl-C reaches the whole foreground group: the shell survives it to print the exit code.
          "trap : INT",
          `'${process.execPath}' '${BIN}' logs tail --base-url '${emu.url}' --lines 5 --interval 0.2`,
          'echo "exit code: $?"',
          "sleep 600",
        ].join("\n"),
        { mode: 0o755 },
      );
      tmux("new-session", "-d", "-s", "tail", "-x", "160", "-y", "40", script);
      await until(
        () => /^TIME\s+STATE\s+MESSAGE ID\s+URL \/ TOPIC\s+STATUS\s+ERROR/m.test(screen()),
        "the table header",
      );
      const before = screen()
        .split("\n")
        .filter((l) => /^\d{4}-\d\d-\d\dT/.test(l));
      expect(before).toHaveLength(5);
      // Rows fit the 160-column terminal.
      for (const line of screen().split("\n")) expect(line.length).toBeLessThanOrEqual(160);

      emu.logs.append([
        {
          messageId: "msg_in_tmux",
          state: "FAILED",
          error: "503 Service Unavailable",
          responseStatus: 503,
        },
      ]);
      // (The error column may be cut with "…" to fit the terminal.)
      await until(
        () => /FAILED\s+msg_in_tmux\s+503\s+503 Serv/.test(screen()),
        "the appended entry",
      );

      // A terminal gets colour: the FAILED state in red.
      expect(tmux("capture-pane", "-p", "-e", "-t", "tail")).toMatch(/\x1b\[31mFAILED/);

      tmux("send-keys", "-t", "tail", "C-c");
      await until(() => screen().includes("exit code:"), "the exit code");
      expect(screen()).toMatch(/exit code: 130/);
    });

    it("db delete asks on a terminal: no keeps the database (exit 1), yes deletes it", async () => {
      const m = createManagementClient({
        email: emu.credentials.email,
        apiKey: emu.credentials.apiKey,
        baseUrl: emu.url,
      });
      const db = await m.databases.create({ database_name: "asked", primary_region: "us-east-1" });
      const script = join(dir, "delete.sh");
      const remove = `'${process.execPath}' '${BIN}' db delete '${db.database_id}' --base-url '${emu.url}'`;
      writeFileSync(
        script,
        [
          "#!/bin/sh",
          `export UPSTASH_EMAIL='${emu.credentials.email}' UPSTASH_API_KEY='${emu.credentials.apiKey}'`,
          remove,
          'echo "first exit code: $?"',
          remove,
          'echo "second exit code: $?"',
          "sleep 600",
        ].join("\n"),
        { mode: 0o755 },
      );
      const shown = () => screen("confirm");
      tmux("new-session", "-d", "-s", "confirm", "-x", "160", "-y", "40", script);
      await until(() => /\? \[y\/N\]\s*$/m.test(shown()), "the question", 15_000, "confirm");
      expect(shown()).toContain(
        `Delete a database: ${db.database_id} (deleteDatabase, cannot be undone)`,
      );
      expect(shown()).toContain(`account: ${emu.credentials.email}`);
      expect(shown()).toContain(`server:  ${emu.url}`);
      expect(shown()).toContain("Proceed? [y/N]");
      tmux("send-keys", "-t", "confirm", "n", "Enter");
      await until(() => shown().includes("first exit code:"), "the first exit", 15_000, "confirm");
      expect(shown()).toMatch(/not confirmed: nothing was sent/);
      expect(shown()).toMatch(/first exit code: 1/);
      expect((await m.databases.list()).map((d) => d.database_id)).toEqual([db.database_id]);

      await until(
        () => (shown().match(/\[y\/N\]/g) ?? []).length === 2,
        "the second question",
        15_000,
        "confirm",
      );
      tmux("send-keys", "-t", "confirm", "y", "Enter");
      await until(
        () => shown().includes("second exit code:"),
        "the second exit",
        15_000,
        "confirm",
      );
      expect(shown()).toMatch(/second exit code: 0/);
      expect(await m.databases.list()).toEqual([]);
    });
  },
);
