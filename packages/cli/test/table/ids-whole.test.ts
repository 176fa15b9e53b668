// Tables keep ids whole: on a terminal of 80 columns (COLUMNS=80) the message ids of `logs list` are
// never cut (the URL and error columns give up width instead); when stdout is not a terminal, or with
// `--wide`, no cell is cut at all. Runs the CLI in-process with a stdout that says it is a terminal.
import { PassThrough } from "node:stream";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/index.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 200, seed: 3 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const LONG_ERROR = "dial tcp 203.0.113.7:443: connect: connection refused; ".repeat(4).trim();
const LONG_URL = "https://hooks.example.com/" + "very-long-path-segment/".repeat(6);

/**
 * Runs `api-clients args…` with stdout as a terminal of `columns` (or not a terminal); `onOutput` sees
 * stdout so far each time it grows.
 */
async function runIn(
  args: string[],
  tty: { columns: number } | undefined,
  env = {},
  onOutput?: (stdout: string) => void,
) {
  const stdout = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: tty.columns } : {});
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.setEncoding("utf8").on("data", (d: string) => {
    out += d;
    onOutput?.(out);
  });
  stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const code = await run([...args, "--base-url", emu.url, "--no-color"], {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: { QSTASH_TOKEN: emu.credentials.logsToken, ...env },
  });
  return { code, stdout: out, stderr: err };
}

/** Message ids of every shape: the service's 32 characters, and longer ones a service may send. */
function appendEntries(): string[] {
  const ids = [
    "msg_26hZCxZCuWyyTWPmSVBrNCtiJEPnFXb5bBVrQZT5YcTHNAtTFHBjrLJHyiSrTHvc",
    "msg_" + "A".repeat(28),
    "msg_" + "x".repeat(90),
  ];
  emu.logs.append(
    ids.map((messageId, i) => ({
      messageId,
      state: i === 0 ? "FAILED" : "DELIVERED",
      url: LONG_URL,
      error: LONG_ERROR,
      responseStatus: 503,
    })),
  );
  return ids;
}

describe("tables keep ids whole", () => {
  it("COLUMNS=80 on a terminal with an id wider than it: no table fits, so each entry is a vertical record, every message id whole", async () => {
    const ids = appendEntries();
    const result = await runIn(
      ["logs", "list", "--page-size", "60"],
      { columns: 200 },
      {
        COLUMNS: "80",
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const records = result.stdout.split("\n\n").filter((r) => r.startsWith("TIME "));
    expect(records).toHaveLength(60);
    // Every id the API returned is in its record whole, for the generated ids too: on the MESSAGE ID
    // line, or on a line of its own when it is longer than the room after the label.
    const listed = await fetch(`${emu.url}/v2/logs?count=60`, {
      headers: { authorization: `Bearer ${emu.credentials.logsToken}` },
    }).then((r) => r.json() as Promise<{ events: { messageId: string }[] }>);
    for (const [i, entry] of listed.events.entries())
      expect(records[i]!.split(/\s+/)).toContain(entry.messageId);
    for (const id of ids) expect(result.stdout.split(/\s+/)).toContain(id);
    // Nothing else is wider than the terminal: long values wrap onto more lines, whole.
    for (const line of result.stdout.split("\n"))
      if (!ids.includes(line)) expect(line.length).toBeLessThanOrEqual(80);
    // COLUMNS (80), not the terminal's 200 columns, is what the other columns shrink to.
    expect(result.stdout.replace(/\n {13}/g, "")).toContain(LONG_ERROR.replace(/\s+/g, " "));
  });

  it("not a terminal (COLUMNS=80 or not): nothing is cut; --wide does the same on a terminal", async () => {
    const ids = appendEntries();
    for (const [tty, extra] of [
      [undefined, []],
      [{ columns: 80 }, ["--wide"]],
    ] as const) {
      const result = await runIn(["logs", "list", "--page-size", "10", ...extra], tty, {
        COLUMNS: "80",
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toContain("…");
      for (const id of ids) expect(result.stdout).toContain(id);
      expect(result.stdout.match(new RegExp(LONG_ERROR, "g"))).toHaveLength(3);
      expect(result.stdout.split(LONG_URL).length - 1).toBe(3);
    }
  });

  it("logs tail: a later entry with an id longer than the first rows' is printed whole", async () => {
    const shortId = "msg_short";
    emu.logs.append([{ messageId: shortId, state: "DELIVERED", url: LONG_URL }]);
    const longId = "msg_" + "L".repeat(70);
    let printed!: () => void;
    const firstRow = new Promise<void>((resolve) => (printed = resolve));
    const tail = runIn(
      ["logs", "tail", "--lines", "1", "--limit", "2", "--interval", "0.05"],
      { columns: 80 },
      { COLUMNS: "80" },
      (stdout) => stdout.includes(shortId) && printed(),
    );
    // The long entry comes once the first row is printed (its width set by the short id).
    await firstRow;
    emu.logs.append([{ messageId: longId, state: "FAILED", url: LONG_URL, error: LONG_ERROR }]);
    const result = await tail;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(` ${shortId} `);
    expect(result.stdout).toContain(` ${longId} `);
  });
});
