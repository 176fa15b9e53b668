import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthenticationError, createLogsClient, type LogEntry } from "../../src/index.js";

// The client against the emulator: both read the same spec, so this checks they agree on the wire.
let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 5_000, seed: 7 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const client = () => createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url });
const key = (e: LogEntry) => `${e.messageId}/${e.state}/${e.time}`;
const collect = async (iterable: AsyncIterable<LogEntry>) => {
  const out: LogEntry[] = [];
  for await (const entry of iterable) out.push(entry);
  return out;
};

describe("logs client against the emulator", () => {
  it("iterate() yields every entry once, newest first by default", async () => {
    const entries = await collect(client().iterate({ count: 1000 }));
    expect(entries).toHaveLength(5_000);
    expect(new Set(entries.map(key)).size).toBe(5_000);
    const times = entries.map((e) => Number(e.time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("earliestFirst reverses the order and filters narrow exactly as client-side filtering would", async () => {
    const all = await collect(client().iterate({ order: "earliestFirst" }));
    const times = all.map((e) => Number(e.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const from = Number(all[1_000]!.time);
    const to = Number(all[3_000]!.time);
    const filtered = await collect(
      client().iterate({
        state: "delivered",
        fromDate: new Date(from),
        toDate: to,
        count: 250,
        order: "earliestFirst",
      }),
    );
    const expected = all.filter(
      (e) => e.state === "DELIVERED" && Number(e.time) >= from && Number(e.time) <= to,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(filtered.map(key)).toEqual(expected.map(key));
  });

  it("a message's whole life is found by messageId", async () => {
    const { messageId, entries } = emu.logs.simulateMessage({ outcome: "failed", retries: 2 });
    const page = await client().list({ messageId, order: "earliestFirst" });
    expect(page.events.map((e) => e.state)).toEqual(entries.map((e) => e.state));
    expect(page.events.at(-1)!.state).toBe("FAILED");
    expect(page).not.toHaveProperty("cursor");
  });

  it("entries appended while paging do not disturb the pages of the entries that existed", async () => {
    const before = await collect(client().iterate({ count: 1000 }));
    const seen: LogEntry[] = [];
    for await (const entry of client().iterate({ count: 500, order: "earliestFirst" })) {
      seen.push(entry);
      if (seen.length % 1_000 === 0) emu.logs.simulateMessage({ outcome: "delivered" });
    }
    const seenKeys = new Set(seen.map(key));
    expect(seenKeys.size).toBe(seen.length);
    for (const entry of before) expect(seenKeys.has(key(entry))).toBe(true);
  });

  it("recovers from injected 503 and 429 faults while paging", async () => {
    emu.faults.add({ path: "/v2/logs", status: 503, times: 1 });
    emu.faults.add({ path: "/v2/logs", status: 429, retryAfter: 0.01, times: 1 });
    const entries = await collect(client().iterate({ count: 1000 }));
    expect(entries).toHaveLength(5_000);
  });

  it("listEvents() reads the same page through /v2/events", async () => {
    const [logs, events] = await Promise.all([
      client().list({ count: 20 }),
      client().listEvents({ count: 20 }),
    ]);
    expect(events).toEqual(logs);
  });

  it("a wrong token is an AuthenticationError with the emulator's message", async () => {
    const wrong = createLogsClient({ token: "wrong", baseUrl: emu.url });
    const error = await wrong.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
  });
});
