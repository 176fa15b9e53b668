// entryDate(): an entry's `time` as a `Date`, whatever form the service sent it in, read over HTTP.
import { startEmulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { createLogsClient, entryDate, type LogEntry } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const MS = 1_686_652_644_442;
const ISO = "2023-06-13T10:37:24.442Z";

/** The dates of one page whose entries carry these `time` values, read through the client. */
async function datesOf(times: unknown[]): Promise<Date[]> {
  const events = times.map((time, i) => ({ time, messageId: `m${i}`, state: "DELIVERED" }));
  server.enqueue({ status: 200, body: { events } });
  const page = await createLogsClient({ token: "t", baseUrl: server.url }).list();
  return page.events.map(entryDate);
}

describe("entryDate()", () => {
  it.each([
    ["Unix ms as a number (the current reference)", MS, ISO],
    ["Unix ms as a string (the older reference)", String(MS), ISO],
    ["Unix ms as a string with spaces around", ` ${MS} `, ISO],
    ["an ISO 8601 text", ISO, ISO],
    ["the epoch", 0, "1970-01-01T00:00:00.000Z"],
  ])("%s", async (_, time, want) => {
    const [date] = await datesOf([time]);
    expect(date).toBeInstanceOf(Date);
    expect(date!.toISOString()).toBe(want);
  });

  it.each([
    ["an empty string", ""],
    ["a text that is no date", "yesterday-ish"],
    ["null", null],
    ["a boolean", true],
    ["an object", { ms: MS }],
    ["a number past what a Date holds", 9e15],
  ])("%s: an invalid Date, never a wrong one", async (_, time) => {
    const [date] = await datesOf([time]);
    expect(date).toBeInstanceOf(Date);
    expect(date!.getTime()).toBeNaN();
  });

  it("is typed for any entry: no branch on `string | number`", () => {
    expectTypeOf(entryDate).parameter(0).toEqualTypeOf<Pick<LogEntry, "time">>();
    expectTypeOf(entryDate).returns.toEqualTypeOf<Date>();
  });

  it("against the emulator: every entry's date is its Unix ms, in the order the service sent", async () => {
    const emu = await startEmulator({ port: 0, seedLogs: 50 });
    try {
      const logs = createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url });
      const { events } = await logs.list({ count: 50 });
      expect(events).toHaveLength(50);
      const dates = events.map((e) => entryDate(e).getTime());
      expect(dates).toEqual(events.map((e) => Number(e.time)));
      expect(dates.every(Number.isFinite)).toBe(true);
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
    } finally {
      await emu.close();
    }
  });
});
