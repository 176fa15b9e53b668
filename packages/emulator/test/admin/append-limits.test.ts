// Issue #12 items 13 and 14: appended entries are bounded (nesting, size, count, time), so no append
// can make later listings or snapshots fail.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { pageAll, start } from "../helpers.js";
import { errorText, JSON_HEADERS, send } from "../raw-http.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 50 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const append = (body: string) =>
  send(emu.url, "/__emulator/logs", { method: "POST", headers: JSON_HEADERS, body });

/** An entry whose `body` field nests `levels` arrays (built as text: JSON.stringify would overflow). */
const nested = (levels: number): string =>
  `[{"messageId":"msg_deep","state":"CREATED","deep":${"[".repeat(levels)}${"]".repeat(levels)}}]`;

/** Every later read still answers 200. */
async function stillServes(): Promise<void> {
  const page = await send(emu.url, "/v2/logs?count=1000", {
    headers: { authorization: "Bearer test-logs-token" },
  });
  expect(page.status).toBe(200);
  expect((await send(emu.url, "/__emulator/snapshot")).status).toBe(200);
  expect(() => emu.snapshot()).not.toThrow();
}

describe("nesting (item 13)", () => {
  it("refuses an entry nested 20,000 levels with 400 naming the limit, and keeps serving", async () => {
    const a = await append(nested(20_000));
    expect(a.status).toBe(400);
    expect(errorText(a)).toMatch(/32 levels/);
    await stillServes();
  });

  it("accepts 32 levels (the entry counts as one) and refuses 33", async () => {
    expect((await append(nested(31))).status).toBe(200);
    const a = await append(nested(32));
    expect(a.status).toBe(400);
    expect(errorText(a)).toBe("entries[0]: must nest at most 32 levels deep");
    await stillServes();
  });

  it("refuses a restore whose appended entries nest too deep", async () => {
    const snap = JSON.stringify(emu.snapshot()).replace(
      '"appended":[]',
      `"appended":[{"seq":999,"time":1,"messageId":"m","state":"CREATED","x":${"[".repeat(5_000)}${"]".repeat(5_000)}}]`,
    );
    const a = await send(emu.url, "/__emulator/restore", {
      method: "POST",
      headers: JSON_HEADERS,
      body: snap,
    });
    expect(a.status).toBe(400);
    await stillServes();
  });

  it("throws from emu.logs.append() too", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => emu.logs.append([{ deep }])).toThrow(/32 levels/);
  });
});

describe("size and count (item 13)", () => {
  it("refuses an entry over 64 KiB with 400 naming the limit", async () => {
    const a = await append(JSON.stringify([{ body: "x".repeat(70_000) }]));
    expect(a.status).toBe(400);
    expect(errorText(a)).toMatch(/^entries\[0\]: must be at most 65536 bytes as JSON/);
    expect((await append(JSON.stringify([{ body: "x".repeat(60_000) }]))).status).toBe(200);
  });

  it("refuses more than 10,000 entries in one append, and accepts 10,000", async () => {
    const before = emu.logs.size;
    const many = (n: number): string => `[${Array.from({ length: n }, () => "{}").join(",")}]`;
    const a = await append(many(10_001));
    expect(a.status).toBe(400);
    expect(errorText(a)).toMatch(/at most 10000 entries per append \(got 10001\)/);
    expect(emu.logs.size).toBe(before);
    const ok = await append(many(10_000));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ appended: 10_000, size: before + 10_000 });
  });
});

describe("time (item 14)", () => {
  it.each([
    ["1e21", 1e21],
    ["-1", -1],
    ["a fraction", 1.5],
    ["past the largest Date", 8_640_000_000_000_001],
    ["a non-numeric string", "yesterday"],
    ["null", null],
  ])("refuses time %s with 400", async (_name, time) => {
    const a = await append(JSON.stringify([{ messageId: "msg_t", time }]));
    expect(a.status).toBe(400);
    expect(errorText(a)).toBe(
      "entries[0].time: must be an integer Unix time in milliseconds from 0 to 8640000000000000",
    );
  });

  it("pages past entries at both ends of the range with cursors it accepts", async () => {
    const a = await append(
      JSON.stringify([
        { messageId: "msg_edge", time: 8_640_000_000_000_000 },
        { messageId: "msg_edge", time: "8639999999999999" },
        { messageId: "msg_edge", time: 0 },
      ]),
    );
    expect(a.status).toBe(200);
    const all = await pageAll(emu, { count: 7 });
    expect(all).toHaveLength(53);
    expect(all[0]?.time).toBe(8_640_000_000_000_000);
    expect(all[1]?.time).toBe(8_639_999_999_999_999);
    expect(all[52]?.time).toBe(0);
  });

  it("throws from emu.logs.append() too", () => {
    expect(() => emu.logs.append([{ time: 1e21 }])).toThrow(/^entries\[0\]\.time: /);
  });
});
