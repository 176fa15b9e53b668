import { describe, expect, it } from "vitest";
import {
  AbortError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  type LogEvent,
} from "../../src/index.js";
import { useTestServer, closedPortUrl } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

const server = useTestServer();

const NOW = { "retry-after-ms": "0" };

describe("retries over HTTP", () => {
  it("503 then 200 succeeds on the second attempt, after a backoff", async () => {
    server.enqueue({ status: 503 }, { status: 200, body: { ok: true } });
    const started = performance.now();
    expect(await testApi(server.url).request("getThing", {})).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
    // The first backoff is 500 ms minus up to 25 % jitter.
    expect(performance.now() - started).toBeGreaterThanOrEqual(370);
  });

  it("gives up after maxRetries + 1 attempts with the last error, counting them", async () => {
    server.enqueue(
      ...Array.from({ length: 5 }, () => ({
        status: 502,
        headers: NOW,
        body: { error: "bad gateway" },
      })),
    );
    const error = await rejection(testApi(server.url, { maxRetries: 3 }).request("getThing", {}));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).attempts).toBe(4);
    expect((error as Error).message).toBe(
      `502 Bad Gateway: bad gateway (GET ${server.url}/thing), after 4 attempts`,
    );
    expect(server.requests).toHaveLength(4);
  });

  it("does not retry a non-idempotent call on 503", async () => {
    server.enqueue({ status: 503, headers: NOW, body: { error: "busy" } }, { status: 200 });
    const error = await rejection(
      testApi(server.url).request("createThing", { body: { name: "a" } }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(503);
    expect((error as InternalServerError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a POST the spec marks idempotent on 503", async () => {
    server.enqueue({ status: 503, headers: NOW }, { status: 200, body: "OK" });
    await testApi(server.url).request("toggle", { path: { id: "a" } });
    expect(server.requests).toHaveLength(2);
  });

  it("retries POST on 429 and resends the same body", async () => {
    server.enqueue({ status: 429, headers: NOW }, { status: 201, body: { id: 7 } });
    const api = testApi(server.url);
    expect(await api.request("createThing", { body: { name: "a" } })).toEqual({ id: 7 });
    expect(server.requests.map((r) => [r.method, r.body])).toEqual([
      ["POST", '{"name":"a"}'],
      ["POST", '{"name":"a"}'],
    ]);
  });

  it("resends the body on every attempt of raw too", async () => {
    server.enqueue(
      { status: 429, headers: NOW },
      { status: 429, headers: NOW },
      { status: 200, body: {} },
    );
    const { response } = await testApi(server.url).raw.POST("/things", { body: { name: "b" } });
    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.body)).toEqual(Array(3).fill('{"name":"b"}'));
  });

  it("honours whole Retry-After seconds (seen in the retry event, then aborted)", async () => {
    server.enqueue({ status: 503, headers: { "retry-after": "2" } }, { status: 200 });
    const controller = new AbortController();
    const events: LogEvent[] = [];
    const api = testApi(server.url, {
      logger: (event) => {
        events.push(event);
        if (event.type === "retry") controller.abort();
      },
    });
    await rejection(api.request("getThing", {}, { signal: controller.signal }));
    expect(events.find((event) => event.type === "retry")).toMatchObject({
      delayMs: 2000,
      attempt: 1,
      reason: "status 503",
    });
  });

  it("honours retry-after-ms", async () => {
    server.enqueue({ status: 503, headers: { "retry-after-ms": "80" } }, { status: 200, body: {} });
    const started = performance.now();
    await testApi(server.url).request("getThing", {});
    expect(performance.now() - started).toBeGreaterThanOrEqual(78);
    expect(server.requests).toHaveLength(2);
  });

  it.each([["0x2"], ["1e3"], ["-1"], ["1.5"], ["soon"]])(
    "ignores Retry-After: %s and backs off instead",
    async (value) => {
      server.enqueue({ status: 503, headers: { "retry-after": value } }, { status: 200 });
      const controller = new AbortController();
      const events: LogEvent[] = [];
      const api = testApi(server.url, {
        logger: (event) => {
          events.push(event);
          if (event.type === "retry") controller.abort();
        },
      });
      await rejection(api.request("getThing", {}, { signal: controller.signal }));
      const retry = events.find((event) => event.type === "retry") as { delayMs: number };
      expect(retry.delayMs).toBeGreaterThanOrEqual(375);
      expect(retry.delayMs).toBeLessThanOrEqual(500);
    },
  );

  it("fails at once with RateLimitError when Retry-After exceeds 60 s, and says why", async () => {
    server.enqueue({
      status: 429,
      headers: { "retry-after": "120" },
      body: { error: "slow down" },
    });
    const started = performance.now();
    const error = await rejection(testApi(server.url).request("getThing", {}));
    // At once: a wait would take at least the 60 s cap (10 s leaves room for a busy machine).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect((error as Error).message).toBe(
      `429 Too Many Requests: slow down (GET ${server.url}/thing); not retried: the server asked to wait 120 s (Retry-After), more than the 60 s limit`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("x-should-retry: false stops a retry the status would allow", async () => {
    server.enqueue(
      { status: 503, headers: { ...NOW, "x-should-retry": "false" } },
      { status: 200 },
    );
    await expect(testApi(server.url).request("getThing", {})).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("x-should-retry: true retries a status that is not retried otherwise, even for POST", async () => {
    server.enqueue(
      { status: 400, headers: { ...NOW, "x-should-retry": "true" } },
      { status: 200, body: {} },
    );
    await testApi(server.url).request("createThing", { body: { name: "a" } });
    expect(server.requests).toHaveLength(2);
  });

  it("per-call maxRetries overrides the client's; raw uses the client's (no per-call limits)", async () => {
    const api = testApi(server.url, { maxRetries: 5 });
    server.enqueue({ status: 503, headers: NOW }, { status: 200 });
    await expect(api.request("getThing", {}, { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.requests).toHaveLength(1);
    server.reset();
    server.enqueue({ status: 503, headers: NOW }, { status: 200 });
    const { response } = await api.raw.GET("/thing", { maxRetries: 0 } as never);
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });
});

describe("connection failures", () => {
  it("retries a refused connection even for POST, then fails with ConnectionError", async () => {
    const url = await closedPortUrl();
    const events: LogEvent[] = [];
    const api = testApi(url, { maxRetries: 1, logger: (event) => events.push(event) });
    const error = await rejection(api.request("createThing", { body: { name: "a" } }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ConnectionError).cause).toBeInstanceOf(Error);
    expect((error as ConnectionError).attempts).toBe(2);
    expect((error as Error).message).toMatch(
      /^Connection failed \(POST http:\/\/127\.0\.0\.1:\d+\/things\): fetch failed.*, after 2 attempts$/,
    );
    expect(events.map((event) => event.type)).toEqual(["request", "retry", "request", "error"]);
  });

  it("raw throws the same ConnectionError", async () => {
    const url = await closedPortUrl();
    const error = await rejection(testApi(url, { maxRetries: 0 }).raw.GET("/thing"));
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it("retries GET when the connection is reset before a response", async () => {
    server.enqueue({ reset: true }, { status: 200, body: { ok: 1 } });
    expect(await testApi(server.url).request("getThing", {})).toEqual({ ok: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry POST when the connection is reset after the request was sent", async () => {
    server.enqueue({ reset: true }, { status: 200 });
    const error = await rejection(
      testApi(server.url).request("createThing", { body: { name: "a" } }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("a 2xx body cut mid-way fails the call with ConnectionError when no retry is left", async () => {
    server.enqueue({ status: 200, body: { items: Array(300).fill(1) }, resetAfterBytes: 10 });
    const error = await rejection(testApi(server.url, { maxRetries: 0 }).request("getThing", {}));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/^Connection failed \(GET .*\/thing\)/);
  });

  it("a 2xx body cut mid-way is retried for GET", async () => {
    server.enqueue(
      { status: 200, body: { items: Array(300).fill(1) }, resetAfterBytes: 10 },
      { status: 200, body: { second: true } },
    );
    expect(await testApi(server.url).request("getThing", {})).toEqual({ second: true });
    expect(server.requests).toHaveLength(2);
  });

  it("an error body cut mid-way is retried for GET", async () => {
    server.enqueue(
      { status: 404, body: { error: "x".repeat(1000) }, resetAfterBytes: 10 },
      { status: 200, body: { second: true } },
    );
    expect(await testApi(server.url).request("getThing", {})).toEqual({ second: true });
    expect(server.requests).toHaveLength(2);
  });
});

describe("timeouts and abort", () => {
  it("a hung attempt fails with TimeoutError after timeoutMs", async () => {
    server.enqueue({ hang: true });
    const started = performance.now();
    const error = await rejection(
      testApi(server.url, { timeoutMs: 100, maxRetries: 0 }).request("getThing", {}),
    );
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as TimeoutError).timeoutMs).toBe(100);
    expect((error as Error).message).toBe(
      `Request timed out after 100 ms (GET ${server.url}/thing)`,
    );
    expect(elapsed).toBeGreaterThanOrEqual(95);
    // The 100 ms given, not the 30 s default (5 s leaves room for a busy machine).
    expect(elapsed).toBeLessThan(5_000);
  });

  it("the timeout is per attempt and a timed-out GET is retried", async () => {
    server.enqueue({ hang: true }, { status: 200, body: { ok: true } });
    const api = testApi(server.url, { timeoutMs: 10_000 });
    // 1 s: the second attempt answers within it even on a busy machine; a timeout for the whole
    // call would have expired with the first attempt.
    expect(await api.request("getThing", {}, { timeoutMs: 1_000, maxRetries: 1 })).toEqual({
      ok: true,
    });
    expect(server.requests).toHaveLength(2);
  });

  it("a timed-out non-idempotent POST is not retried", async () => {
    server.enqueue({ hang: true }, { status: 200, body: {} });
    // 500 ms: the POST reaches the server before its timer fires, even on a busy machine.
    const error = await rejection(
      testApi(server.url, { timeoutMs: 500 }).request("createThing", { body: { name: "a" } }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it("the timeout also covers a stalled 2xx body", async () => {
    server.enqueue({ status: 200, body: { items: Array(50).fill(1) }, stallAfterBytes: 5 });
    const error = await rejection(
      testApi(server.url, { timeoutMs: 100, maxRetries: 0 }).request("getThing", {}),
    );
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("raw throws TimeoutError like call", async () => {
    server.enqueue({ hang: true });
    const error = await rejection(
      testApi(server.url, { timeoutMs: 60, maxRetries: 0 }).raw.GET("/thing"),
    );
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("a user abort during the backoff wait rejects promptly with AbortError", async () => {
    server.enqueue({ status: 503, headers: { "retry-after": "30" } }, { status: 200 });
    const controller = new AbortController();
    const api = testApi(server.url, {
      logger: (event) => {
        if (event.type === "retry") setTimeout(() => controller.abort(), 20);
      },
    });
    const started = performance.now();
    const error = await rejection(api.request("getThing", {}, { signal: controller.signal }));
    // Long before the 30 s wait ends (5 s leaves room for a busy machine).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(controller.signal.reason);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("a user abort during a hung request rejects with AbortError and closes the socket", async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const reason = new Error("stop");
    const pending = rejection(
      testApi(server.url).request("getThing", {}, { signal: controller.signal }),
    );
    // Once the request hangs at the server, not after a fixed time that a busy machine may outlast.
    await server.waitForRequests(1);
    controller.abort(reason);
    const error = await pending;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
    expect((error as Error).message).toBe("Request aborted: stop");
    await server.requests[0]?.done;
    expect(server.requests[0]?.closedEarly).toBe(true);
  });

  it("a user abort while the body streams rejects with AbortError", async () => {
    server.enqueue({ status: 200, body: { items: Array(50).fill(1) }, stallAfterBytes: 5 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("enough")), 50);
    const error = await rejection(
      testApi(server.url).raw.GET("/thing", { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual(new Error("enough"));
  });

  it("an already-aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      testApi(server.url).request("getThing", {}, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0);
  });
});
