import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  AbortError,
  DeadlineExceededError,
  createRateLimiter,
  type LogEvent,
  type RateLimiter,
} from "../../src/index.js";
import { useTestServer } from "../support/test-server.js";
import { rejection, SECRET, testApi } from "../support/api.js";

const server = useTestServer();

/** One 200 answer: what its burst window had left, and when that window resets (epoch ms). */
interface BurstAnswer {
  remaining: number;
  resetMs: number;
}

/** Answers 200 stating a burst window of `limit` a second, counted like the service (whole seconds). */
function burstServer(limit: number): {
  arrivals: number[];
  answers: BurstAnswer[];
  refused: () => number;
} {
  const arrivals: number[] = [];
  const answers: BurstAnswer[] = [];
  let second = 0;
  let used = 0;
  let refused = 0;
  server.setHandler(() => {
    const now = Date.now();
    arrivals.push(now);
    const s = Math.floor(now / 1000);
    if (s !== second) [second, used] = [s, 0];
    const headers = {
      "burst-ratelimit-limit": String(limit),
      "burst-ratelimit-reset": String(s + 1),
    };
    if (used >= limit) {
      refused++;
      return { status: 429, headers: { ...headers, "burst-ratelimit-remaining": "0" } };
    }
    used++;
    answers.push({ remaining: limit - used, resetMs: (s + 1) * 1000 });
    return {
      status: 200,
      headers: { ...headers, "burst-ratelimit-remaining": String(limit - used) },
      body: { ok: true },
    };
  });
  return { arrivals, answers, refused: () => refused };
}

/** A full garbage collection, callable without `--expose-gc`. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/** Resolves 5 ms into the next wall-clock second (the burst windows are whole seconds). */
const nextSecond = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));

describe("the in-process gate paces by the budget the server reported", () => {
  it("after Remaining: 0 the next call waits for the reset instead of being refused, and logs the wait", async () => {
    const { arrivals, answers, refused } = burstServer(2);
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (e) => events.push(e), maxRetries: 0 });
    // From a second's start, six calls at two a second meet an exhausted window twice. On a busy
    // machine a window may also turn on its own before the next call: then there is nothing to wait for.
    await nextSecond();
    const startedAt: number[] = [];
    for (let i = 0; i < 6; i++) {
      startedAt.push(Date.now());
      await api.request("getThing", {});
    }
    expect(refused()).toBe(0);
    expect(arrivals).toHaveLength(6);
    // Calls that started well before the reset of an answer that said Remaining: 0 must have waited.
    const mustWait = answers
      .slice(0, -1)
      .filter((a, i) => a.remaining === 0 && startedAt[i + 1]! < a.resetMs - 20).length;
    const waits = events.filter((e) => e.type === "rate-limit");
    expect(waits.length).toBeGreaterThanOrEqual(Math.max(mustWait, 1));
    expect(waits.length).toBeLessThanOrEqual(answers.filter((a) => a.remaining === 0).length);
    expect(waits[0]).toMatchObject({ method: "GET", attempt: 1 });
  });

  it("concurrent calls go through the same gate", async () => {
    const { refused } = burstServer(3);
    const api = testApi(server.url, { maxRetries: 0 });
    // A call sent in a second's last moments is counted by the server in the next one, where the gate
    // does not count it: start early in a second, so only the gate's own waits cross a window's end.
    await nextSecond();
    await api.request("getThing", {}); // learn the window
    await Promise.all(Array.from({ length: 8 }, () => api.request("getThing", {})));
    expect(refused()).toBe(0);
  });

  it("the caller's signal aborts a rate-limit wait at once", async () => {
    server.setHandler(() => ({
      status: 200,
      headers: {
        "ratelimit-limit": "10",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(Math.floor(Date.now() / 1000) + 30),
      },
      body: { ok: true },
    }));
    const api = testApi(server.url);
    await api.request("getThing", {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 100);
    const started = performance.now();
    const error = await rejection(api.request("getThing", {}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it("a wait past the deadline is not started: fails at once, nothing sent", async () => {
    server.setHandler(() => ({
      status: 200,
      headers: {
        "ratelimit-limit": "10",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      },
      body: { ok: true },
    }));
    const api = testApi(server.url);
    await api.request("getThing", {});
    const error = await rejection(api.request("getThing", {}));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toContain(
      "refused before its deadline of 120000 ms (deadlineMs): not sent: the rate limit's wait of",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("a configured limit paces an API whose answers state none", async () => {
    server.setHandler(() => ({ status: 200, body: { ok: true } }));
    const events: LogEvent[] = [];
    const api = testApi(server.url, {
      rateLimiter: createRateLimiter({ limit: { requests: 2, intervalMs: 400 } }),
      logger: (e) => events.push(e),
    });
    for (let i = 0; i < 5; i++) await api.request("getThing", {});
    const arrivals = server.requests.map((r) => r.receivedAt);
    expect(arrivals[2]! - arrivals[0]!).toBeGreaterThanOrEqual(390);
    expect(arrivals[4]! - arrivals[0]!).toBeGreaterThanOrEqual(790);
    expect(events.filter((e) => e.type === "rate-limit")).toHaveLength(2);
  });
});

describe("the rateLimiter option", () => {
  it("is asked before each attempt and told each answer, under a key that is not the credentials", async () => {
    server.setHandler(() => ({
      status: 200,
      headers: { "burst-ratelimit-remaining": "4" },
      body: {},
    }));
    const calls: string[] = [];
    const keys = new Set<string>();
    const limiter: RateLimiter = {
      acquire(key) {
        keys.add(key);
        calls.push("acquire");
        return 0;
      },
      report(key, answer) {
        keys.add(key);
        calls.push(`report ${answer.status} ${answer.headers.get("burst-ratelimit-remaining")}`);
      },
    };
    await testApi(server.url, { rateLimiter: limiter }).request("getThing", {});
    expect(calls).toEqual(["acquire", "report 200 4"]);
    expect(keys.size).toBe(1);
    const [key] = [...keys];
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(key).not.toContain(SECRET);
  });

  it("a limiter that fails never fails the call: the attempt goes ahead and a warning says why", async () => {
    server.setHandler(() => ({ status: 200, body: { ok: true } }));
    const events: LogEvent[] = [];
    const limiter: RateLimiter = {
      acquire: () => Promise.reject(new Error("store unreachable")),
      report: () => {
        throw new Error("store unreachable");
      },
    };
    const api = testApi(server.url, { rateLimiter: limiter, logger: (e) => events.push(e) });
    expect(await api.request("getThing", {})).toEqual({ ok: true });
    const warnings = events.filter((e) => e.type === "warning").map((e) => e.message);
    expect(warnings).toEqual([
      "rate limiter failed (store unreachable); this attempt goes ahead unpaced",
      "rate limiter failed to learn the budget (store unreachable)",
    ]);
  });

  it("the same when it throws from acquire() and rejects from report() (each asked once)", async () => {
    server.setHandler(() => ({ status: 200, body: { ok: true } }));
    const events: LogEvent[] = [];
    let asked = 0;
    const limiter: RateLimiter = {
      acquire: () => {
        asked++;
        throw new Error("store down");
      },
      report: () => Promise.reject(new Error("store down")),
    };
    const api = testApi(server.url, { rateLimiter: limiter, logger: (e) => events.push(e) });
    expect(await api.request("getThing", {})).toEqual({ ok: true });
    expect(asked).toBe(1);
    const warnings = events.filter((e) => e.type === "warning").map((e) => e.message);
    expect(warnings).toEqual([
      "rate limiter failed (store down); this attempt goes ahead unpaced",
      "rate limiter failed to learn the budget (store down)",
    ]);
  });

  it("a limiter's answers from another realm's promises are awaited and their failures reported", async () => {
    server.setHandler(() => ({ status: 200, body: { ok: true } }));
    const events: LogEvent[] = [];
    // A promise of another realm (a vm context, a test environment) is not `instanceof Promise` here.
    const foreign = runInNewContext("Promise") as PromiseConstructor;
    let learned = 0;
    const limiter: RateLimiter = {
      acquire: () => foreign.resolve(0),
      report: () =>
        new foreign<void>((_, reject) => {
          learned++;
          setTimeout(() => reject(new Error("store gone")), 5);
        }),
    };
    const api = testApi(server.url, { rateLimiter: limiter, logger: (e) => events.push(e) });
    expect(await api.request("getThing", {})).toEqual({ ok: true });
    expect(learned).toBe(1);
    const warnings = events.filter((e) => e.type === "warning").map((e) => e.message);
    expect(warnings).toEqual(["rate limiter failed to learn the budget (store gone)"]);
  });

  it("what a limiter keeps in context.held stays with its call: its next ask sees it, the next call's first does not", async () => {
    server.setHandler(() => ({ status: 200, body: { ok: true } }));
    const seen: unknown[] = [];
    let slots = 0;
    const limiter: RateLimiter = {
      acquire(_key, context) {
        seen.push(context.held);
        if (context.held !== undefined) return 0;
        context.held = `slot ${++slots}`;
        return 1; // ask again in 1 ms
      },
      report(_key, answer, context) {
        seen.push(`${answer.status} with ${String(context.held)}`);
      },
    };
    const api = testApi(server.url, { rateLimiter: limiter });
    await api.request("getThing", {});
    await api.request("getThing", {});
    expect(seen).toEqual([
      undefined,
      "slot 1",
      "200 with slot 1",
      undefined,
      "slot 2",
      "200 with slot 2",
    ]);
  });

  it("an asynchronous limiter is awaited: its wait is slept before the attempt is sent", async () => {
    server.setHandler(() => ({ status: 200, body: { ok: true } }));
    const events: LogEvent[] = [];
    const answers = [40, 0];
    let reported = 0;
    const limiter: RateLimiter = {
      acquire: async () => answers.shift() ?? 0,
      report: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        reported++;
      },
    };
    const api = testApi(server.url, { rateLimiter: limiter, logger: (e) => events.push(e) });
    expect(await api.request("getThing", {})).toEqual({ ok: true });
    expect(answers).toEqual([]);
    expect(reported).toBe(1);
    expect(events.filter((e) => e.type === "rate-limit").map((e) => e.delayMs)).toEqual([60]);
  });

  it("a limiter waiting on context.signal is released by the call's deadline, through garbage collections", async () => {
    server.setHandler(() => ({ status: 200, body: { ok: true } }));
    // Waits for nothing but the signal, keeping no other reference to it (as a store client would).
    const limiter: RateLimiter = {
      acquire: (_key, context) =>
        new Promise((_resolve, reject) => {
          const { signal } = context;
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      report: () => undefined,
    };
    const api = testApi(server.url, { rateLimiter: limiter, deadlineMs: 300 });
    // Collects garbage while the limiter waits: a deadline timer held only weakly would be lost.
    const gc = collector();
    const collecting = setInterval(gc, 10);
    try {
      const started = performance.now();
      const error = await rejection(api.request("getThing", {}));
      expect(error).toBeInstanceOf(DeadlineExceededError);
      expect((error as Error).message).toContain("no time left for an attempt");
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect(server.requests).toHaveLength(0);
    } finally {
      clearInterval(collecting);
    }
  });

  it("rejects a value without acquire() and report()", () => {
    expect(() => testApi(server.url, { rateLimiter: {} as RateLimiter })).toThrow(
      "rateLimiter: must have acquire() and report() methods",
    );
  });
});
