import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { errorOf, getLogs, pageAll, start, type LogPage } from "../helpers.js";

let emu: Emulator;
const END = 1_750_000_000_000;

beforeAll(async () => {
  emu = await start({ seedLogs: 3000, seed: 42, logsEndTime: END });
});
afterAll(() => emu.close());

describe.each(["/v2/logs", "/v2/events"])("GET %s", (path) => {
  it("answers a page of entries, newest first, with a cursor", async () => {
    const a = await getLogs(emu, { count: 50 }, path);
    expect(a.status).toBe(200);
    const page = a.body as LogPage;
    expect(page.events).toHaveLength(50);
    expect(page.cursor).toMatch(/^\d+-\d+$/);
    expect(page.events[0]?.time).toBe(END);
    for (let i = 1; i < page.events.length; i++) {
      expect(page.events[i - 1]!.time).toBeGreaterThanOrEqual(page.events[i]!.time);
    }
    for (const e of page.events) {
      expect(typeof e.time).toBe("number");
      expect(e.messageId).toMatch(/^msg_/);
      expect(e.state).toMatch(/^[A-Z_]+$/);
    }
  });

  it.each([
    ["count below the minimum", { count: 0 }, /^count: must be an integer from 1 to 1000/],
    ["count above the maximum", { count: 1001 }, /^count: must be an integer from 1 to 1000/],
    ["count not an integer", { count: "ten" }, /^count: must be an integer/],
    [
      "order outside its enum",
      { order: "newest" },
      /^order: must be one of "earliestFirst", "latestFirst"/,
    ],
    ["fromDate not a number", { fromDate: "yesterday" }, /^fromDate: must be a number/],
    ["cursor of another shape", { cursor: "abc" }, /^cursor: /],
  ])("rejects %s with 400", async (_name, query, message) => {
    const a = await getLogs(emu, query, path);
    expect(a.status).toBe(400);
    expect(errorOf(a)).toMatch(message);
  });

  it("rejects a wrong or missing token with 401", async () => {
    const wrong = await getLogs(emu, {}, path, "nope");
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong)).toMatch(/token/);
    const res = await fetch(`${emu.url}${path}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/Bearer/);
  });
});

describe("the generated log", () => {
  it("is deterministic for a seed", async () => {
    const other = await start({ seedLogs: 3000, seed: 42, logsEndTime: END });
    try {
      const a = (await getLogs(emu, { count: 200 })).body;
      const b = (await getLogs(other, { count: 200 })).body;
      expect(b).toEqual(a);
    } finally {
      await other.close();
    }
  });

  it("tells realistic message lifecycles", async () => {
    const all = await pageAll(emu, { order: "earliestFirst" });
    expect(all).toHaveLength(3000);
    const states = new Set(all.map((e) => e.state));
    for (const s of [
      "CREATED",
      "ACTIVE",
      "DELIVERED",
      "ERROR",
      "RETRY",
      "FAILED",
      "CANCEL_REQUESTED",
      "CANCELLED",
    ]) {
      expect(states).toContain(s);
    }
    const byMessage = new Map<string, string[]>();
    for (const e of all)
      byMessage.set(e.messageId, [...(byMessage.get(e.messageId) ?? []), e.state]);
    for (const [, states] of byMessage) {
      const last = states[states.length - 1];
      if (last === "DELIVERED") expect(states).toContain("ACTIVE");
      if (last === "FAILED") expect(states.at(-2)).toBe("ERROR");
      if (last === "CANCELLED") expect(states.at(-2)).toBe("CANCEL_REQUESTED");
    }
    const fields = new Set(all.flatMap((e) => Object.keys(e)));
    for (const f of [
      "url",
      "header",
      "body",
      "error",
      "nextDeliveryTime",
      "topicName",
      "endpointName",
      "scheduleId",
      "queueName",
      "responseStatus",
      "responseBody",
      "responseHeaders",
      "timeout",
      "method",
      "callback",
      "callbackHeaders",
      "failureCallback",
      "failureCallbackHeaders",
      "maxRetries",
      "retryDelayExpression",
      "label",
      "labels",
      "flowControlKey",
    ]) {
      expect(fields).toContain(f);
    }
  });
});

describe("filters", () => {
  let all: LogPage["events"];
  beforeAll(async () => {
    all = await pageAll(emu, {});
  });

  const sample = (k: string): string => String(all.find((e) => typeof e[k] === "string")?.[k]);

  it.each(["messageId", "url", "topicName", "scheduleId", "queueName"])(
    "%s narrows to matching entries",
    async (k) => {
      const value = sample(k);
      const got = await pageAll(emu, { [k]: value, count: 7 });
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(all.filter((e) => e[k] === value));
    },
  );

  it.each([
    ["DELIVERED", ["DELIVERED"]],
    ["FAILED", ["FAILED"]],
    ["CANCELLED", ["CANCELLED"]],
    ["IN_PROGRESS", ["ACTIVE", "RETRY", "ERROR"]],
  ])("state=%s filters (upper case, as the service documents it)", async (state, states) => {
    const got = await pageAll(emu, { state, count: 1000 });
    expect(got).toEqual(all.filter((e) => states.includes(e.state)));
  });

  it("fromDate and toDate are inclusive and compose with other filters", async () => {
    const mid = all[1500]!;
    const from = all[2000]!.time;
    const to = mid.time;
    const url = sample("url");
    const got = await pageAll(emu, {
      fromDate: from,
      toDate: to,
      url,
      state: "DELIVERED",
      count: 10,
    });
    const want = all.filter(
      (e) => e.time >= from && e.time <= to && e.url === url && e.state === "DELIVERED",
    );
    expect(got).toEqual(want);
    const exact = await pageAll(emu, { fromDate: to, toDate: to });
    expect(exact.map((e) => e.time)).toContain(to);
    expect(exact.every((e) => e.time === to)).toBe(true);
  });

  it("an unknown value answers an empty last page", async () => {
    const a = await getLogs(emu, { messageId: "msg_unknown" });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ events: [] });
  });

  it("count defaults to 100 (the service's default) and the last page has no cursor", async () => {
    const first = (await getLogs(emu, {})).body as LogPage;
    expect(first.events).toHaveLength(100);
    const last = (
      await getLogs(emu, { count: 1000, cursor: `${all[2998]!.time}-0`, order: "latestFirst" })
    ).body as LogPage;
    expect(last.cursor).toBeUndefined();
  });
});

describe("emu.logs", () => {
  it("append and simulateMessage add entries findable by messageId", async () => {
    const before = emu.logs.size;
    const [appended] = emu.logs.append([
      { messageId: "msg_manual", state: "delivered", url: "https://x.test/" },
    ]);
    expect(appended).toMatchObject({
      messageId: "msg_manual",
      state: "DELIVERED",
      url: "https://x.test/",
    });
    const sim = emu.logs.simulateMessage({
      outcome: "failed",
      retries: 2,
      url: "https://fail.test/",
    });
    expect(sim.entries.map((e) => e.state)).toEqual([
      "CREATED",
      "ACTIVE",
      "ERROR",
      "RETRY",
      "ACTIVE",
      "ERROR",
      "FAILED",
    ]);
    expect(emu.logs.size).toBe(before + 1 + sim.entries.length);
    const got = (await getLogs(emu, { messageId: sim.messageId, order: "earliestFirst" }))
      .body as LogPage;
    expect(got.events.map((e) => e.state)).toEqual(sim.entries.map((e) => e.state));
    expect(emu.logs.message(sim.messageId)).toEqual(sim.entries);
  });
});
