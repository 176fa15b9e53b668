import { startEmulator, type Emulator } from "@api-clients/emulator";
import type { LogEntry } from "@api-clients/logs-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli } from "../support/cli.js";
import { entryKey, target } from "../support/emulator.js";

let emu: Emulator;
let cli: ReturnType<typeof target>;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 2_000, seed: 3 });
  cli = target(emu);
});
afterAll(() => emu.close());

const lines = (text: string) => text.split("\n").filter((l) => l !== "");
const batch = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ messageId: `msg_${tag}_${i}`, state: "DELIVERED" }));

describe("api-clients logs tail", () => {
  it("shows the newest entries, then every entry appended while it runs, once each, oldest first; Ctrl-C exits 130", async () => {
    const tail = startCli(
      [
        "logs",
        "tail",
        ...cli.base,
        "--json",
        "--lines",
        "3",
        "--interval",
        "0.1",
        "--count",
        "100",
      ],
      cli.env,
    );
    await tail.waitFor((out) => lines(out).length === 3);
    const initial = lines(tail.stdout).map((l) => JSON.parse(l) as LogEntry);
    const times = initial.map((e) => Number(e.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // More than a page (--count 100) arrives between two polls: tail must follow the cursor.
    emu.logs.append(batch("a", 250));
    await tail.waitFor((out) => lines(out).length === 3 + 250);
    // Then a second burst, while the first is still within the window it checks for late entries.
    emu.logs.append(batch("b", 40));
    emu.logs.simulateMessage({ outcome: "delivered" });
    await tail.waitFor((out) => lines(out).length >= 3 + 250 + 40 + 3);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a few more polls: nothing new to show

    tail.child.kill("SIGINT");
    const result = await tail.done;
    expect(result.code).toBe(130);
    const shown = lines(result.stdout).map((l) => JSON.parse(l) as LogEntry);
    const keys = shown.map(entryKey);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = shown.slice(3).map((e) => e.messageId);
    expect(ids.filter((id) => id.startsWith("msg_a_")).sort()).toEqual(
      batch("a", 250)
        .map((e) => e.messageId)
        .sort(),
    );
    expect(ids.filter((id) => id.startsWith("msg_b_")).sort()).toEqual(
      batch("b", 40)
        .map((e) => e.messageId)
        .sort(),
    );
    expect(shown.slice(3)).toHaveLength(250 + 40 + 3);
    const shownTimes = shown.map((e) => Number(e.time));
    expect(shownTimes).toEqual([...shownTimes].sort((a, b) => a - b));
  });

  it("as a table: a header, then rows as entries arrive", async () => {
    const tail = startCli(
      ["logs", "tail", ...cli.base, "--lines", "0", "--interval", "0.1", "--state", "failed"],
      cli.env,
    );
    await tail.waitFor((out) => out.startsWith("TIME"));
    emu.logs.append([
      { messageId: "msg_tail_ok", state: "DELIVERED" },
      { messageId: "msg_tail_failed", state: "FAILED", error: "410 Gone", responseStatus: 410 },
    ]);
    await tail.waitFor((out) => out.includes("msg_tail_failed"));
    tail.child.kill("SIGINT");
    const result = await tail.done;
    expect(result.code).toBe(130);
    const [header, ...rows] = lines(result.stdout);
    expect(header).toMatch(/^TIME\s+STATE\s+MESSAGE ID/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/FAILED\s+msg_tail_failed\s+410\s+410 Gone$/);
  });
});
