// Output that fits the terminal, checked in a real one: tmux panes of 80 and 120 columns run the built
// CLI against an emulator (`logs list`, `logs message`, `db list`, `--trace`, `--help`); the whole
// screen and its history, wrapped lines joined (`capture-pane -J`), has no line wider than the pane,
// and every id the API returned is on it whole.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createManagementClient } from "@api-clients/management-client";
import stringWidth from "string-width";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../support/cli.js";

const hasTmux = spawnSync("sh", ["-c", "command -v tmux"]).status === 0;
const socket = `api-clients-fit-${process.pid}`;
const tmux = (...args: string[]) =>
  execFileSync("tmux", ["-u", "-L", socket, ...args], { encoding: "utf8" });

let emu: Emulator;
let dir: string;
let listed: string[];
let dbIds: string[];
const WIDE_ID = "msg_広い_🚀_wide";
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 40, seed: 11 });
  dir = mkdtempSync(join(tmpdir(), "api-clients-fit-"));
  emu.logs.append([
    {
      messageId: WIDE_ID,
      state: "FAILED",
      url: "https://例え.テスト/受信/" + "🚀".repeat(12) + "/イベント/" + "長".repeat(20),
      error: "接続が拒否されました: dial tcp 203.0.113.7:443: connect: connection refused ".repeat(
        3,
      ),
      responseStatus: 503,
    },
  ]);
  listed = await fetch(`${emu.url}/v2/logs?count=15`, {
    headers: { authorization: `Bearer ${emu.credentials.logsToken}` },
  })
    .then((r) => r.json() as Promise<{ events: { messageId: string }[] }>)
    .then((page) => page.events.map((e) => e.messageId));
  const m = createManagementClient({
    email: emu.credentials.email,
    apiKey: emu.credentials.apiKey,
    baseUrl: emu.url,
  });
  for (const name of ["orders-cache-" + "x".repeat(30), "会話キャッシュ-🚀"])
    await m.databases.create({ database_name: name, primary_region: "eu-west-1", tls: true });
  dbIds = (await m.databases.list()).map((d) => String(d.database_id));
});
afterAll(async () => {
  if (hasTmux) spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `api-clients` with each of `commands` in a `columns`-wide pane; the whole pane, lines joined. */
async function screenOf(columns: number, commands: string[][]): Promise<string> {
  const session = `fit${columns}`;
  const cli = `'${process.execPath}' '${BIN}' --base-url '${emu.url}' --no-pager`;
  const script = join(dir, `${session}.sh`);
  writeFileSync(
    script,
    [
      "#!/bin/sh",
      `export QSTASH_TOKEN='${emu.credentials.logsToken}' UPSTASH_EMAIL='${emu.credentials.email}' UPSTASH_API_KEY='${emu.credentials.apiKey}'`,
      "export LANG=C.UTF-8 LC_ALL=C.UTF-8",
      "unset COLUMNS",
      ...commands.map((args) => `${cli} ${args.map((a) => `'${a}'`).join(" ")}`),
      'echo "all done"',
      "sleep 600",
    ].join("\n"),
    { mode: 0o755 },
  );
  tmux("new-session", "-d", "-s", session, "-x", String(columns), "-y", "50", script);
  tmux("set-option", "-t", session, "history-limit", "20000");
  const capture = () => tmux("capture-pane", "-p", "-J", "-S", "-", "-t", session);
  const started = Date.now();
  while (!capture().includes("all done")) {
    if (Date.now() - started > 30_000) throw new Error(`timed out; screen:\n${capture()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return capture();
}

describe.skipIf(!hasTmux)(`fitted to the terminal (tmux)${hasTmux ? "" : ": no tmux"}`, () => {
  for (const columns of [80, 120])
    it(`${columns} columns: no line wider than the pane, every id whole`, async () => {
      const shown = await screenOf(columns, [
        ["logs", "list", "--limit", "15"],
        ["logs", "message", WIDE_ID],
        ["logs", "message", listed[1] as string],
        ["db", "list"],
        ["--trace", "logs", "list", "--limit", "3"],
        ["--help"],
        ["logs", "list", "--help"],
        ["call", "getDatabase", "--help"],
      ]);
      const lines = shown.split("\n").map((l) => l.trimEnd());
      const wide = lines.filter((l) => stringWidth(l) > columns);
      expect(wide, `lines wider than ${columns}`).toEqual([]);
      const words = new Set(shown.split(/\s+/));
      for (const id of [...listed, ...dbIds]) expect(words, id).toContain(id);
      // The wide characters are measured as two cells: the URL is cut or wrapped, not the id.
      expect(shown).toContain(WIDE_ID);
      // Each part ran: the table header or vertical records, the message title, the trace, the help.
      expect(shown).toContain(`${WIDE_ID}: 1 state`);
      // At 80 columns too, logs list and db list are tables (narrower times, fewer columns).
      expect(shown).toMatch(/^TIME\s+STATE\s+MESSAGE ID/m);
      expect(shown).toMatch(/^ID\s+NAME\s+/m);
      expect(shown).toMatch(/^trace: 1 call in/m);
      expect(shown).toContain("Usage: api-clients [options] [command]");
      expect(shown).toContain("Parameters (--param name=value):");
    }, 60_000);
});
