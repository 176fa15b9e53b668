// Issue 31: one answer can no longer stop a client. Each defect (X1, H1, W1, W2) over a real socket,
// then the in-process limiter and the gate on controlled time, asserting the exact waits.
import { describe, expect, it } from "vitest";
import {
  ApiClientError,
  ConnectionError,
  createRateLimiter,
  RateLimitError,
  type LogEvent,
} from "../../src/index.js";
import {
  createClockedRateLimiter,
  createRateLimitGate,
  type GateClock,
} from "../../src/internal.js";
import { Deadline } from "../../src/internal/deadline.js";
import type { GatedCall } from "../../src/internal/rate-limit-gate.js";
import { useTestServer } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

const server = useTestServer();
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Answers the first request with `first` (status and headers), every later one 200 without headers. */
function answerOnce(first: { status: number; headers: Record<string, string> }): void {
  server.setHandler(() =>
    server.requests.length === 1
      ? { ...first, body: first.status === 200 ? { ok: true } : { error: "refused" } }
      : { status: 200, body: { ok: true } },
  );
}

const warningsOf = (events: LogEvent[]) =>
  events.filter((e) => e.type === "warning").map((e) => e.message);

describe("X1: a reset past what a Date can hold", () => {
  it("a 200 stating it: later calls are sent, nothing throws a RangeError, one warning", async () => {
    answerOnce({
      status: 200,
      headers: {
        "burst-ratelimit-limit": "5",
        "burst-ratelimit-remaining": "0",
        "burst-ratelimit-reset": "9000000000000",
      },
    });
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (e) => events.push(e), deadlineMs: 3_000 });
    for (let i = 0; i < 3; i++) expect(await api.request("getThing", {})).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
    expect(warningsOf(events)).toEqual([
      "rate limit: ignored Burst-RateLimit-Reset: 9000000000000: no burst window can mean it; not waited for",
    ]);
  });

  it.each([
    ["burst", { "burst-ratelimit-remaining": "0", "burst-ratelimit-reset": "9000000000000" }],
    ["daily", { "ratelimit-remaining": "0", "ratelimit-reset": "9000000000000" }],
  ])(
    "a 429 stating it (%s): a RateLimitError, not a connection error, sent once",
    async (_, headers) => {
      answerOnce({ status: 429, headers: { ...headers, "x-should-retry": "false" } });
      const error = await rejection(testApi(server.url).request("getThing", {}));
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).not.toBeInstanceOf(ConnectionError);
      expect(server.requests).toHaveLength(1);
      expect((error as RateLimitError).resetAt).toBeUndefined();
      expect((error as RateLimitError).rateLimit).toBeUndefined();
    },
  );

  it("limit: { intervalMs: Infinity } is refused when the limiter is made, naming the field", () => {
    const refused = "limit: requests must be 1 to 2^31, intervalMs 1 to 2147483647";
    expect(() => createRateLimiter({ limit: { requests: 1, intervalMs: Infinity } })).toThrow(
      refused,
    );
    expect(() => createRateLimiter({ limit: { requests: 2 ** 40, intervalMs: 1_000 } })).toThrow(
      refused,
    );
  });
});

describe("H1, W1, W2: values no window of their kind can mean are unknown, never a reason to block", () => {
  it.each([
    [
      "H1: Burst-RateLimit-Limit: 0",
      { "burst-ratelimit-limit": "0" },
      "Burst-RateLimit-Limit: 0: no burst window",
    ],
    [
      "W1: a burst reset a day ahead",
      { "burst-ratelimit-limit": "5", "burst-ratelimit-reset": "86400" },
      "Burst-RateLimit-Reset: 86400: no burst window",
    ],
    [
      "W2: a burst limit of 2^64 − 1",
      { "burst-ratelimit-limit": "18446744073709551615" },
      "Burst-RateLimit-Limit: 18446744073709551615: no burst window",
    ],
  ])("%s: the next calls are sent at once, one warning names it", async (_, headers, named) => {
    answerOnce({
      status: 200,
      headers: {
        "burst-ratelimit-remaining": "0",
        "burst-ratelimit-reset": "1",
        ...headers,
      },
    });
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (e) => events.push(e), deadlineMs: 1_500 });
    for (let i = 0; i < 3; i++) await api.request("getThing", {});
    expect(server.requests).toHaveLength(3);
    expect(events.filter((e) => e.type === "rate-limit")).toEqual([]);
    expect(warningsOf(events)).toEqual([expect.stringContaining(`rate limit: ignored ${named}`)]);
  });

  it("a daily reset more than a day ahead, and a count that is not a whole number, are said once each per client", async () => {
    server.setHandler(() => ({
      status: 200,
      headers: {
        "ratelimit-limit": "1000",
        "ratelimit-remaining": "-1",
        "ratelimit-reset": String(nowSeconds() + 2 * 86_400),
      },
      body: { ok: true },
    }));
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (e) => events.push(e) });
    for (let i = 0; i < 4; i++) await api.request("getThing", {});
    expect(warningsOf(events)).toEqual([
      expect.stringMatching(
        /^rate limit: ignored RateLimit-Remaining: -1: no daily quota can mean it/,
      ),
      expect.stringMatching(
        /^rate limit: ignored RateLimit-Reset: \d+: no daily quota can mean it/,
      ),
    ]);
  });

  it("a header value is shown bounded and printable", async () => {
    answerOnce({ status: 200, headers: { "burst-ratelimit-limit": `\u00e9${"9".repeat(200)}` } });
    const events: LogEvent[] = [];
    await testApi(server.url, { logger: (e) => events.push(e) }).request("getThing", {});
    const [warning] = warningsOf(events);
    expect(warning).toContain(`Burst-RateLimit-Limit: ?${"9".repeat(39)}: no burst`);
    expect(warning!.length).toBeLessThan(250);
  });

  it("RateLimitError's fields and its rateLimit come from the same read (#30 item 3)", async () => {
    answerOnce({
      status: 429,
      headers: {
        "x-should-retry": "false",
        "burst-ratelimit-limit": "1e3",
        "burst-ratelimit-remaining": "0",
        "burst-ratelimit-reset": "1",
      },
    });
    const error = (await rejection(testApi(server.url).request("getThing", {}))) as RateLimitError;
    expect(error.limit).toBeUndefined();
    expect(error.rateLimit).toBeUndefined();
    server.reset();
    answerOnce({
      status: 429,
      headers: {
        "x-should-retry": "false",
        "burst-ratelimit-limit": "1000",
        "burst-ratelimit-remaining": "0",
        "burst-ratelimit-reset": "1",
      },
    });
    const again = (await rejection(testApi(server.url).request("getThing", {}))) as RateLimitError;
    expect(again.rateLimit).toEqual({ burstLimit: 1000, burstRemaining: 0, burstReset: 1 });
    expect(again.limit).toBe(1000);
    expect(Math.abs(again.resetAt!.getTime() - Date.now() - 1000)).toBeLessThan(1000);
  });
});

/** A controlled clock: `sleep` advances it and records each wait. */
function controlledClock(start: number): GateClock & { waits: number[]; at: number } {
  const clock = {
    at: start,
    waits: [] as number[],
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.waits.push(ms);
      clock.at += ms;
    },
  };
  return clock;
}

/** A call as the gate sees it, on the controlled clock, with its warnings collected. */
function gatedCall(clock: { now(): number }, deadlineMs: number, warnings: string[]): GatedCall {
  const at = clock.now() + deadlineMs;
  const deadline = Object.assign(Object.create(Deadline.prototype) as Deadline, {
    ms: deadlineMs,
    at,
    remaining: () => Math.max(0, at - clock.now()),
    crossedBy: (ms: number) => clock.now() + ms > at,
  });
  return {
    method: "GET",
    url: "http://127.0.0.1/thing",
    signal: new AbortController().signal,
    deadline,
    watch: { warn: (m) => warnings.push(m), rateLimitWait: () => undefined },
  };
}

const burst = (remaining: string, reset: string, limit = "5") =>
  new Headers({
    "burst-ratelimit-limit": limit,
    "burst-ratelimit-remaining": remaining,
    "burst-ratelimit-reset": reset,
  });

describe("the in-process limiter and the gate on controlled time: exact waits", () => {
  const T = 1_800_000_000_000; // a whole second, in Unix ms

  it("Remaining 0 with a reset 1 s ahead: the next attempt waits exactly until it, plus the 20 ms margin", async () => {
    const clock = controlledClock(T);
    const limiter = createClockedRateLimiter({}, clock.now);
    const gate = createRateLimitGate(limiter, "http://x", "Bearer t", clock);
    const warnings: string[] = [];
    const call = gatedCall(clock, 5_000, warnings);
    gate.report(call, { status: 200, headers: burst("0", String(T / 1000 + 1)) });
    clock.at += 250;
    expect(await gate.pace(call, 1)).toBe(770);
    expect(clock.waits).toEqual([770]);
    expect(warnings).toEqual([]);
  });

  it.each([
    ["a burst reset 2 s ahead (the longest trusted)", burst("0", "2"), [2_020]],
    ["a burst reset 3 s ahead", burst("0", "3"), []],
    ["a limit of 0", burst("0", "1", "0"), []],
    ["a limit past 2^31", burst("0", "1", String(2 ** 31 + 1)), []],
    ["a remaining past 2^31", burst(String(2 ** 31 + 1), "1"), []],
    ["a reset past a Date's range", burst("0", "9".repeat(400)), []],
  ])("%s: waits %j", async (_, headers, waits) => {
    const clock = controlledClock(T);
    const limiter = createClockedRateLimiter({}, clock.now);
    const gate = createRateLimitGate(limiter, "http://x", "Bearer t", clock);
    const warnings: string[] = [];
    const call = gatedCall(clock, 120_000, warnings);
    gate.report(call, { status: 200, headers });
    await gate.pace(call, 1);
    expect(clock.waits).toEqual(waits);
    expect(warnings).toHaveLength(waits.length === 0 ? 1 : 0);
  });

  it("a daily quota used up past the deadline: refused at once, the message says how long is left", async () => {
    const clock = controlledClock(T);
    const limiter = createClockedRateLimiter({}, clock.now);
    const gate = createRateLimitGate(limiter, "http://x", "Bearer t", clock);
    const call = gatedCall(clock, 3_000, []);
    const headers = new Headers({
      "ratelimit-limit": "1000",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(T / 1000 + 3_600),
    });
    gate.report(call, { status: 200, headers });
    const error = await rejection(Promise.resolve().then(() => gate.pace(call, 1)));
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as Error).message).toMatch(
      /^Call refused before its deadline of 3000 ms \(deadlineMs\): not sent: the rate limit's wait of 3600000 ms \(until 2027-01-15T09:00:00.000Z\) exceeds the (3000|299\d) ms left of it /,
    );
    expect((error as Error).message).not.toContain("exceeded");
    expect(clock.waits).toEqual([]);
  });

  it("a limiter answering a wait past what a Date can hold: a DeadlineExceededError, not a RangeError", async () => {
    const clock = controlledClock(T);
    const gate = createRateLimitGate(
      { acquire: () => Number.MAX_VALUE, report: () => undefined },
      "http://x",
      "Bearer t",
      clock,
    );
    const error = await rejection(
      Promise.resolve().then(() => gate.pace(gatedCall(clock, 3_000, []), 1)),
    );
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as Error).message).toContain("(until past a Date's range)");
  });

  it("a configured window paces exactly: 2 per 400 ms", async () => {
    const clock = controlledClock(T);
    const limiter = createClockedRateLimiter(
      { limit: { requests: 2, intervalMs: 400 } },
      clock.now,
    );
    const gate = createRateLimitGate(limiter, "http://x", "Bearer t", clock);
    for (let i = 0; i < 5; i++) await gate.pace(gatedCall(clock, 5_000, []), 1);
    expect(clock.waits).toEqual([420, 400]);
  });
});

describe("W3: what a limiter holds for a call is free once the call ends", () => {
  it("ending a call aborts the signal its limiter was given, so a reservation can be given back", async () => {
    const clock = controlledClock(1_800_000_000_000);
    const signals: AbortSignal[] = [];
    const gate = createRateLimitGate(
      {
        acquire: (_, context) => {
          signals.push(context.signal);
          return 5_000; // past the deadline: the call is refused
        },
        report: () => undefined,
      },
      "http://x",
      "Bearer t",
      clock,
    );
    const call = gatedCall(clock, 1_000, []);
    await rejection(Promise.resolve().then(() => gate.pace(call, 1)));
    expect(signals[0]!.aborted).toBe(false);
    gate.end(call);
    expect(signals[0]!.aborted).toBe(true);
    expect((signals[0]!.reason as DOMException).name).toBe("AbortError");
  });
});
