// Issue #12 item 15: every count the admin API takes is bounded (400 beyond, naming the maximum), so
// no call can hold the event loop for seconds or take the memory of the machine.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { start } from "../helpers.js";
import { errorText, JSON_HEADERS, send } from "../raw-http.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const post = (path: string, body: unknown) =>
  send(emu.url, path, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });

describe("simulate", () => {
  it.each([
    [{ retries: 300_000 }, "retries: must be an integer from 0 to 1000"],
    [{ retries: 1e9 }, "retries: must be an integer from 0 to 1000"],
    [{ retries: -1 }, "retries: must be an integer from 0 to 1000"],
    [{ retries: 2.5 }, "retries: must be an integer from 0 to 1000"],
    [{ stepMs: 1e12 }, "stepMs: must be an integer from 0 to 86400000 (milliseconds)"],
    [
      { startTime: 1e21 },
      "startTime: must be an integer Unix time in milliseconds from 0 to 8640000000000000",
    ],
    [{ outcome: "exploded" }, "outcome: must be one of delivered, failed, cancelled, in-progress"],
  ])("refuses %j with 400 naming the limit, adding nothing", async (opts, message) => {
    const before = emu.logs.size;
    const a = await post("/__emulator/logs/simulate", opts);
    expect(a.status).toBe(400);
    expect(errorText(a)).toBe(message);
    expect(emu.logs.size).toBe(before);
  });

  it("refuses a start time whose last entry would pass the largest Date", async () => {
    const a = await post("/__emulator/logs/simulate", {
      startTime: 8_640_000_000_000_000 - 100,
      retries: 10,
      stepMs: 1_000,
    });
    expect(a.status).toBe(400);
    expect(errorText(a)).toMatch(/^startTime: the message's last entry/);
  });

  it("accepts the maximum", async () => {
    const a = await post("/__emulator/logs/simulate", { retries: 1_000, outcome: "failed" });
    expect(a.status).toBe(200);
    const { entries } = a.body as { entries: { state: string }[] };
    expect(entries.filter((e) => e.state === "ERROR")).toHaveLength(1_000);
    expect(entries.at(-1)?.state).toBe("FAILED");
  });

  it("throws from emu.logs.simulateMessage() too", () => {
    expect(() => emu.logs.simulateMessage({ retries: 300_000 })).toThrow(/^retries: /);
  });
});

describe("faults", () => {
  it("refuses more than 100 rules in one request", async () => {
    const rules = Array.from({ length: 101 }, () => ({ path: "/x", status: 500 }));
    const a = await post("/__emulator/faults", rules);
    expect(a.status).toBe(400);
    expect(errorText(a)).toMatch(/at most 100 fault rules per request \(got 101\)/);
    expect(emu.faults.size).toBe(0);
  });

  it("refuses more than 1,000 active rules, and DELETE makes room again", async () => {
    const rules = Array.from({ length: 100 }, () => ({ path: "/x", status: 500 }));
    for (let i = 0; i < 10; i++) expect((await post("/__emulator/faults", rules)).status).toBe(200);
    const a = await post("/__emulator/faults", { path: "/x", status: 500 });
    expect(a.status).toBe(400);
    expect(errorText(a)).toMatch(/^faults: at most 1000 rules can be active at once/);
    expect(() => emu.faults.add({ status: 500 })).toThrow(/at most 1000 rules/);
    await send(emu.url, "/__emulator/faults", { method: "DELETE", headers: JSON_HEADERS });
    expect((await post("/__emulator/faults", { path: "/x", status: 500 })).status).toBe(200);
  });

  it.each([
    [{ delayMs: 1e12 }, /^delayMs: must be a number from 0 to 600000/],
    [{ times: 1.5 }, /^times: /],
    [{ status: 101 }, /^status: must be an integer from 200 to 599/],
    [{ status: 500, headers: { "x-a": "a\r\nb" } }, /^headers\.x-a: must be a valid header value/],
    [
      { status: 500, headers: { "bad name": "1" } },
      /^headers: "bad name" is not a valid header name/,
    ],
    [{ status: 500, headers: { "content-length": "1" } }, /^headers\.content-length: is set by/],
    [{ status: 500, headers: { "x-n": 5 } }, /^headers\.x-n: /],
    [{ status: 500, resetConnection: "yes" }, /^resetConnection: must be true or false/],
    [
      { status: 500, path: `/${"{a}".repeat(40)}` },
      /^path: a \{param\} must be a whole path segment/,
    ],
    [{ status: 500, body: { x: "y".repeat(70_000) } }, /^body: must be at most 65536 bytes/],
  ])("refuses the rule %j with 400", async (rule, message) => {
    const a = await post("/__emulator/faults", rule);
    expect(a.status).toBe(400);
    expect(errorText(a)).toMatch(message);
    expect(emu.faults.size).toBe(0);
  });

  it("refuses a fault body nested too deep (its answer could not be serialized)", async () => {
    const body = `{"status":500,"body":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const a = await send(emu.url, "/__emulator/faults", {
      method: "POST",
      headers: JSON_HEADERS,
      body,
    });
    expect(a.status).toBe(400);
    expect(emu.faults.size).toBe(0);
  });
});
