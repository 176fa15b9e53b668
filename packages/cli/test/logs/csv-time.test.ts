// CSV export writes `time` as ISO 8601 (UTC) and the same instant in Unix ms in its own `timeMs`
// column, whichever form the service sent `time` in; NDJSON keeps the entry as sent.
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHostile, type HostileServer } from "../hostile/server.js";
import { runCli } from "../support/cli.js";
import { parseCsv } from "../support/csv.js";
import { target } from "../support/emulator.js";

const MS = 1_686_652_644_442;
const ISO = "2023-06-13T10:37:24.442Z";

let emu: Emulator;
let server: HostileServer;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 40, seed: 3 });
  // One page whose entries carry `time` in each form the references document, and one that is no time.
  server = await startHostile(() => ({
    body: {
      events: [
        { time: MS, messageId: "m_number", state: "DELIVERED" },
        { time: String(MS + 1), messageId: "m_string", state: "DELIVERED" },
        { time: "=not a time", messageId: "m_bad", state: "DELIVERED" },
      ],
    },
  }));
});
afterAll(async () => {
  await emu.close();
  await server.close();
});

/** `logs export --format csv` of `args` to stdout, parsed into records by column name. */
async function exportCsv(baseUrl: string, env: Record<string, string>, ...args: string[]) {
  const result = await runCli(
    ["logs", "export", "--base-url", baseUrl, "--format", "csv", "--no-progress", ...args],
    env,
  );
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const [header, ...rows] = parseCsv(result.stdout);
  return {
    header: header!,
    records: rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]]))),
  };
}

describe("CSV times", () => {
  it("time is ISO 8601 and timeMs its Unix ms, for numbers and digit strings; no time is kept as sent", async () => {
    const { header, records } = await exportCsv(server.url, { QSTASH_TOKEN: "t" });
    expect(header[0]).toBe("time");
    expect(header).toContain("timeMs");
    expect(records.map((r) => [r["messageId"], r["time"], r["timeMs"]])).toEqual([
      ["m_number", ISO, String(MS)],
      ["m_string", "2023-06-13T10:37:24.443Z", String(MS + 1)],
      // Not a time: as sent (and escaped as a formula, as any text cell), no Unix ms.
      ["m_bad", "'=not a time", ""],
    ]);
  });

  it("against the emulator: every entry's time is the ISO form of its timeMs, which is the entry's time", async () => {
    const cli = target(emu);
    const { records } = await exportCsv(
      emu.url,
      cli.env,
      "--columns",
      "messageId,time,timeMs,state",
    );
    const ndjson = await runCli(["logs", "export", ...cli.base, "--no-progress"], cli.env);
    const sent = ndjson.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { time: number | string; messageId: string });
    expect(records).toHaveLength(40);
    expect(sent).toHaveLength(40);
    records.forEach((record, i) => {
      expect(record["messageId"]).toBe(sent[i]!.messageId);
      expect(record["timeMs"]).toBe(String(Number(sent[i]!.time)));
      expect(record["time"]).toBe(new Date(Number(sent[i]!.time)).toISOString());
      expect(record["time"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });
    // NDJSON keeps `time` as the service sent it.
    expect(ndjson.stdout).not.toContain('"timeMs"');
  });
});
