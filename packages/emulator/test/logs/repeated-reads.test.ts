// Repeated reads of the same listing are answered from the serialized page kept by the first read
// (internal/page-cache.ts); these tests check that such an answer is never stale.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { getLogs, start, type LogPage } from "../helpers.js";

let emu: Emulator;
const END = 1_750_000_000_000;

beforeAll(async () => {
  emu = await start({ seedLogs: 500, seed: 3, logsEndTime: END });
});
afterAll(() => emu.close());

const newest = async (path = "/v2/logs") => {
  const answer = await getLogs(emu, { count: 5 }, path);
  expect(answer.status).toBe(200);
  return answer;
};
const ids = (page: unknown) => (page as LogPage).events.map((e) => e.messageId);

describe("repeated reads of one listing", () => {
  it("answer the same bytes while nothing changes, on both paths", async () => {
    const first = await newest();
    expect((await newest()).text).toBe(first.text);
    expect((await newest("/v2/events")).text).toBe(first.text);
  });

  it("show an appended entry at once", async () => {
    const before = ids((await newest()).body);
    emu.logs.append([{ time: END + 1_000, messageId: "msg_cache_appended", state: "DELIVERED" }]);
    const after = ids((await newest()).body);
    expect(after[0]).toBe("msg_cache_appended");
    expect(after.slice(1)).toEqual(before.slice(0, 4));
  });

  it("follow a reset and a restore that leave the same number of entries", async () => {
    const snapA = emu.snapshot();
    emu.reset();
    const base = ids((await newest()).body);
    expect(base).not.toContain("msg_cache_appended");
    emu.logs.append([{ time: END + 2_000, messageId: "msg_cache_other", state: "FAILED" }]);
    expect(ids((await newest()).body)[0]).toBe("msg_cache_other");
    // Same entry count as now, different content: the answer must follow the content.
    emu.restore(snapA);
    expect(ids((await newest()).body)[0]).toBe("msg_cache_appended");
  });

  it("keep rejecting a bad cursor", async () => {
    for (let i = 0; i < 2; i++) {
      expect((await getLogs(emu, { count: 5, cursor: "not-a-cursor" })).status).toBe(400);
    }
  });

  it("answer long pages (not kept) the same as short ones", async () => {
    const long = await getLogs(emu, { count: 500 });
    expect((long.body as LogPage).events).toHaveLength(500);
    expect((await getLogs(emu, { count: 500 })).text).toBe(long.text);
  });
});
