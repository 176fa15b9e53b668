import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { pageAll, start } from "../helpers.js";

let emu: Emulator;
const END = Date.now();

beforeEach(async () => {
  emu = await start({ seedLogs: 5000, seed: 7, logsEndTime: END });
});
afterEach(() => emu.close());

const key = (e: { time: number; messageId: string; state: string }): string =>
  `${e.time}|${e.messageId}|${e.state}`;

/** Appends entries at random times (past, present, future) between pages. */
function appender(emu: Emulator, url: string): (page: number) => void {
  return (page) => {
    emu.logs.append([
      {
        time: END - 10 * 86_400_000 + page * 1000,
        state: "DELIVERED",
        url,
        messageId: `msg_old_${page}`,
      },
      { time: END - 60_000 * page, state: "ERROR", url, messageId: `msg_mid_${page}` },
      { time: END + page, state: "CREATED", url, messageId: `msg_new_${page}` },
    ]);
    emu.logs.simulateMessage({ url, startTime: END - 3_600_000 + page * 7, stepMs: 1 });
  };
}

describe.each(["latestFirst", "earliestFirst"] as const)("order=%s", (order) => {
  it("yields every pre-existing entry exactly once, in order, while entries arrive", async () => {
    const before = await pageAll(emu, { order });
    expect(before).toHaveLength(5000);
    const during = await pageAll(
      emu,
      { order, count: 97 },
      appender(emu, "https://concurrent.test/"),
    );
    const pre = new Set(before.map(key));
    const seen = during.filter((e) => pre.has(key(e)));
    // Same entries, same order, no duplicates (sequence numbers make equal times unambiguous).
    expect(seen).toEqual(before);
    for (let i = 1; i < during.length; i++) {
      const [a, b] = [during[i - 1]!.time, during[i]!.time];
      if (order === "latestFirst") expect(a).toBeGreaterThanOrEqual(b);
      else expect(a).toBeLessThanOrEqual(b);
    }
  });

  it("keeps composed filters while entries arrive", async () => {
    const all = await pageAll(emu, { order });
    const url = all.find((e) => e.url !== undefined)!.url as string;
    const from = Math.min(...all.map((e) => e.time)) + 3_600_000;
    const query = { order, url, state: "IN_PROGRESS", fromDate: from, toDate: END, count: 5 };
    const want = all.filter(
      (e) =>
        e.url === url &&
        ["ACTIVE", "RETRY", "ERROR"].includes(e.state) &&
        e.time >= from &&
        e.time <= END,
    );
    const got = await pageAll(emu, query, appender(emu, url));
    const pre = new Set(want.map(key));
    expect(got.filter((e) => pre.has(key(e)))).toEqual(want);
    for (const e of got) {
      expect(e.url).toBe(url);
      expect(["ACTIVE", "RETRY", "ERROR"]).toContain(e.state);
      expect(e.time).toBeGreaterThanOrEqual(from);
      expect(e.time).toBeLessThanOrEqual(END);
    }
  });
});

it("pages through entries that share one timestamp without loss", async () => {
  const small = await start({ seedLogs: 0 });
  try {
    small.logs.append(
      Array.from({ length: 25 }, (_, i) => ({
        time: 1000,
        messageId: `msg_${i}`,
        state: "CREATED",
      })),
    );
    for (const order of ["latestFirst", "earliestFirst"]) {
      const got = await pageAll(small, { order, count: 4 });
      const ids = got.map((e) => e.messageId);
      expect(new Set(ids).size).toBe(25);
      const expected = Array.from({ length: 25 }, (_, i) => `msg_${i}`);
      expect(ids).toEqual(order === "earliestFirst" ? expected : expected.reverse());
    }
  } finally {
    await small.close();
  }
});
