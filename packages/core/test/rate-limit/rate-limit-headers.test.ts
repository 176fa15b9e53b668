import { describe, expect, it } from "vitest";
import { RateLimitError, type LogEvent } from "../../src/index.js";
import { useTestServer } from "../support/test-server.js";
import { rejection, SECRET, testApi } from "../support/api.js";

const server = useTestServer();

const unixSeconds = (ms: number): number => Math.floor(ms / 1000);

describe("a 429 read by the service's rate-limit headers", () => {
  it("daily quota used up (reset an hour ahead): exactly 1 attempt, scope daily, resetAt from the header", async () => {
    const reset = unixSeconds(Date.now()) + 3600;
    server.enqueue({
      status: 429,
      headers: {
        "ratelimit-limit": "1000",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(reset),
        "burst-ratelimit-limit": "100",
        "burst-ratelimit-remaining": "99",
        "burst-ratelimit-reset": String(unixSeconds(Date.now()) + 1),
      },
      body: { error: "daily quota exceeded" },
    });
    const error = await rejection(testApi(server.url).request("getThing", {}));
    expect(server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.scope).toBe("daily");
    expect(limited.limit).toBe(1000);
    expect(limited.remaining).toBe(0);
    expect(Math.abs((limited.resetAt?.getTime() ?? 0) - reset * 1000)).toBeLessThan(1000);
    expect(limited.attempts).toBe(1);
    const at = new Date(reset * 1000).toISOString();
    expect(limited.message).toContain(
      `daily quota of 1000 requests used up; try again after ${at}`,
    );
    expect(limited.message).toContain("; not retried");
    expect(limited.toJSON()).toMatchObject({ scope: "daily", resetAt: at, remaining: 0 });
  });

  it("daily quota used up, reset 3 s ahead: not retried (1 attempt), a RateLimitError with the quota's reset, not a DeadlineExceededError", async () => {
    const reset = unixSeconds(Date.now()) + 3;
    server.enqueue({
      status: 429,
      headers: {
        "ratelimit-limit": "1000",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(reset),
      },
      body: { error: "daily quota exceeded" },
    });
    const started = Date.now();
    const error = await rejection(
      testApi(server.url).request("getThing", {}, { deadlineMs: 10_000 }),
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).scope).toBe("daily");
    expect((error as RateLimitError).resetAt?.getTime()).toBe(reset * 1000);
    expect((error as RateLimitError).attempts).toBe(1);
  });

  it("states each figure once: a server text naming the limit, and the reset only in 'try again after' (#35)", async () => {
    const reset = unixSeconds(Date.now()) + 3600;
    server.enqueue({
      status: 429,
      headers: {
        "ratelimit-limit": "1000",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(reset),
      },
      body: { error: "rate limit: daily quota of 1000 requests used up" },
    });
    const error = (await rejection(testApi(server.url).request("getThing", {}))) as RateLimitError;
    const count = (text: string) => error.message.split(text).length - 1;
    expect(count("1000")).toBe(1);
    expect(count(new Date(reset * 1000).toISOString().slice(0, 19))).toBe(1);
    expect(error.message).toBe(
      "429 Too Many Requests: rate limit: daily quota of 1000 requests used up (GET " +
        `${server.url}/thing); daily quota used up; try again after ` +
        `${new Date(reset * 1000).toISOString()}; not retried`,
    );
  });

  it("burst reset 1 s ahead, no Retry-After: the second attempt comes after the reset and succeeds", async () => {
    let reset = 0;
    const arrivals: number[] = [];
    server.setHandler(() => {
      arrivals.push(Date.now());
      if (arrivals.length > 1) return { status: 200, body: { ok: true } };
      reset = Math.ceil((Date.now() + 1000) / 1000); // 1 to 2 s ahead
      return {
        status: 429,
        headers: {
          "burst-ratelimit-limit": "5",
          "burst-ratelimit-remaining": "0",
          "burst-ratelimit-reset": String(reset),
        },
        body: { error: "too many requests" },
      };
    });
    const events: LogEvent[] = [];
    const result = await testApi(server.url, { logger: (e) => events.push(e) }).request(
      "getThing",
      {},
    );
    expect(result).toEqual({ ok: true });
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]).toBeGreaterThanOrEqual(reset * 1000);
    const retry = events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({ type: "retry", reason: "status 429" });
  });

  it("a Retry-After later than the burst reset wins (whichever is later)", async () => {
    server.enqueue(
      {
        status: 429,
        headers: {
          "retry-after-ms": "1500",
          "burst-ratelimit-remaining": "0",
          "burst-ratelimit-reset": String(unixSeconds(Date.now())),
        },
      },
      { status: 200, body: { ok: true } },
    );
    const events: LogEvent[] = [];
    await testApi(server.url, { logger: (e) => events.push(e) }).request("getThing", {});
    expect(events.find((e) => e.type === "retry")).toMatchObject({ delayMs: 1500 });
  });

  it("a burst reset more than 2 s ahead is not trusted: the retry backs off as if none were stated, with one warning", async () => {
    const reset = String(unixSeconds(Date.now()) + 120);
    const refusal = {
      status: 429,
      headers: {
        "burst-ratelimit-limit": "5",
        "burst-ratelimit-remaining": "0",
        "burst-ratelimit-reset": reset,
      },
    };
    server.enqueue(refusal, refusal, { status: 200, body: { ok: true } });
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (e) => events.push(e) });
    expect(await api.request("getThing", {})).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
    const retries = events.filter((e) => e.type === "retry");
    // Backoff (500 ms then 1 s, minus up to 25 % jitter), not the 120 s the header states.
    expect(retries.map((e) => e.type === "retry" && e.delayMs <= 1_000)).toEqual([true, true]);
    const warnings = events.filter((e) => e.type === "warning").map((e) => e.message);
    expect(warnings).toEqual([
      `rate limit: ignored Burst-RateLimit-Reset: ${reset}: no burst window can mean it; not waited for`,
    ]);
    expect(warnings.join()).not.toContain(SECRET);
  });
});
