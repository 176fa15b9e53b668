import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ConnectionError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  type LogEvent,
} from "../../src/index.js";
import { closedPortUrl, startTestServer, type TestServer } from "../support/test-server.js";
import { rejection, testTransport } from "../support/transport.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const NOW = { "retry-after-ms": "0" };

describe("retries over HTTP", () => {
  it("503 then 200 succeeds on the second attempt, after a backoff", async () => {
    server.enqueue({ status: 503 }, { status: 200, body: { ok: true } });
    const started = performance.now();
    const response = await testTransport(server.url).fetch(`${server.url}/thing`);
    expect(await response.json()).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(370);
  });

  it("gives up after maxRetries + 1 attempts with the last error", async () => {
    server.enqueue(
      ...Array.from({ length: 5 }, () => ({
        status: 502,
        headers: NOW,
        body: { error: "bad gateway" },
      })),
    );
    const error = await rejection(
      testTransport(server.url, { maxRetries: 3 }).fetch(`${server.url}/x`),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(4);
  });

  it("does not retry a non-idempotent call on 503", async () => {
    server.enqueue({ status: 503, headers: NOW, body: { error: "busy" } }, { status: 200 });
    const transport = testTransport(server.url);
    const error = await rejection(
      transport.fetchFor(undefined, { idempotent: false })(`${server.url}/x`, { method: "POST" }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it("retries POST on 429 and resends the same body", async () => {
    server.enqueue({ status: 429, headers: NOW }, { status: 201, body: { id: 7 } });
    const response = await testTransport(server.url).fetch(`${server.url}/things`, {
      method: "POST",
      body: JSON.stringify({ name: "a" }),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(201);
    expect(server.requests.map((r) => [r.method, r.body])).toEqual([
      ["POST", '{"name":"a"}'],
      ["POST", '{"name":"a"}'],
    ]);
  });

  it("retries a Request body (as openapi-fetch sends it) on every attempt", async () => {
    server.enqueue({ status: 503, headers: NOW }, { status: 200 });
    const fetchFn = testTransport(server.url).fetchFor(undefined, { idempotent: true });
    const request = new Request(`${server.url}/things`, { method: "POST", body: "payload" });
    expect((await fetchFn(request)).status).toBe(200);
    expect(server.requests.map((r) => r.body)).toEqual(["payload", "payload"]);
  });

  it("honours fractional Retry-After seconds", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "0.05" } }, { status: 200 });
    const started = performance.now();
    await testTransport(server.url).fetch(`${server.url}/x`);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(48);
    expect(elapsed).toBeLessThan(350);
    expect(server.requests).toHaveLength(2);
  });

  it("honours whole Retry-After seconds (seen in the retry event, then aborted)", async () => {
    server.enqueue({ status: 503, headers: { "retry-after": "2" } }, { status: 200 });
    const controller = new AbortController();
    const events: LogEvent[] = [];
    const transport = testTransport(server.url, {
      logger: (event) => {
        events.push(event);
        if (event.type === "retry") controller.abort();
      },
    });
    await rejection(
      transport.fetchFor({ signal: controller.signal }, { idempotent: true })(`${server.url}/x`),
    );
    expect(events.find((event) => event.type === "retry")).toMatchObject({
      delayMs: 2000,
      attempt: 1,
    });
  });

  it("honours retry-after-ms", async () => {
    server.enqueue({ status: 503, headers: { "retry-after-ms": "80" } }, { status: 200 });
    const started = performance.now();
    await testTransport(server.url).fetch(`${server.url}/x`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(78);
    expect(server.requests).toHaveLength(2);
  });

  it("fails at once with RateLimitError when Retry-After exceeds 60 s", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "61" }, body: { error: "slow down" } });
    const started = performance.now();
    const error = await rejection(testTransport(server.url).fetch(`${server.url}/x`));
    expect(performance.now() - started).toBeLessThan(500);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(61_000);
    expect(server.requests).toHaveLength(1);
  });

  it("x-should-retry: false stops a retry the status would allow", async () => {
    server.enqueue(
      { status: 503, headers: { ...NOW, "x-should-retry": "false" } },
      { status: 200 },
    );
    await expect(testTransport(server.url).fetch(`${server.url}/x`)).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("x-should-retry: true retries a status that is not retried otherwise", async () => {
    server.enqueue({ status: 400, headers: { ...NOW, "x-should-retry": "true" } }, { status: 200 });
    const response = await testTransport(server.url).fetch(`${server.url}/x`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("per-call maxRetries overrides the client's", async () => {
    server.enqueue({ status: 503, headers: NOW }, { status: 200 });
    const fetchFn = testTransport(server.url, { maxRetries: 5 }).fetchFor(
      { maxRetries: 0 },
      { idempotent: true },
    );
    await expect(fetchFn(`${server.url}/x`)).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("connection failures", () => {
  it("retries a refused connection even for POST, then fails with ConnectionError", async () => {
    const url = await closedPortUrl();
    const events: LogEvent[] = [];
    const transport = testTransport(url, { maxRetries: 1, logger: (event) => events.push(event) });
    const error = await rejection(
      transport.fetchFor(undefined, { idempotent: false })(`${url}/x`, {
        method: "POST",
        body: "b",
      }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ConnectionError).cause).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^Connection failed \(POST http:\/\/127\.0\.0\.1:\d+\/x\)/,
    );
    expect(events.map((event) => event.type)).toEqual(["request", "retry", "request", "error"]);
  });

  it("retries GET when the connection is reset before a response", async () => {
    server.enqueue({ reset: true }, { status: 200, body: "fine" });
    const response = await testTransport(server.url).fetch(`${server.url}/x`);
    expect(await response.text()).toBe("fine");
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry POST when the connection is reset after the request was sent", async () => {
    server.enqueue({ reset: true }, { status: 200 });
    const error = await rejection(
      testTransport(server.url).fetch(`${server.url}/x`, { method: "POST", body: "b" }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("a 2xx body cut mid-way rejects the read with ConnectionError", async () => {
    server.enqueue({ status: 200, body: "x".repeat(1000), resetAfterBytes: 10 });
    const response = await testTransport(server.url).fetch(`${server.url}/x`);
    expect(response.status).toBe(200);
    const error = await rejection(response.text());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("while reading the response");
  });

  it("an error body cut mid-way is retried for GET", async () => {
    server.enqueue(
      { status: 404, body: { error: "x".repeat(1000) }, resetAfterBytes: 10 },
      { status: 200, body: "second" },
    );
    const response = await testTransport(server.url).fetch(`${server.url}/x`);
    expect(await response.text()).toBe("second");
    expect(server.requests).toHaveLength(2);
  });
});

describe("timeouts and abort", () => {
  it("a hung attempt fails with TimeoutError after timeoutMs", async () => {
    server.enqueue({ hang: true });
    const started = performance.now();
    const error = await rejection(
      testTransport(server.url, { timeoutMs: 100, maxRetries: 0 }).fetch(`${server.url}/x`),
    );
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as TimeoutError).timeoutMs).toBe(100);
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(1000);
  });

  it("the timeout is per attempt and a timed-out GET is retried", async () => {
    server.enqueue({ hang: true }, { status: 200, body: "ok" });
    const fetchFn = testTransport(server.url, { timeoutMs: 10_000 }).fetchFor(
      { timeoutMs: 80, maxRetries: 1 },
      { idempotent: true },
    );
    const response = await fetchFn(`${server.url}/x`);
    expect(await response.text()).toBe("ok");
    expect(server.requests).toHaveLength(2);
  });

  it("the timeout also covers a stalled 2xx body", async () => {
    server.enqueue({ status: 200, body: "x".repeat(100), stallAfterBytes: 5 });
    const response = await testTransport(server.url, { timeoutMs: 100 }).fetch(`${server.url}/x`);
    const error = await rejection(response.text());
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("a user abort during the backoff sleep rejects promptly with the signal's reason", async () => {
    server.enqueue({ status: 503, headers: { "retry-after": "5" } }, { status: 200 });
    const controller = new AbortController();
    const transport = testTransport(server.url, {
      logger: (event) => {
        if (event.type === "retry") setTimeout(() => controller.abort(), 20);
      },
    });
    const started = performance.now();
    const error = await rejection(
      transport.fetchFor({ signal: controller.signal }, { idempotent: true })(`${server.url}/x`),
    );
    expect(performance.now() - started).toBeLessThan(150);
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe("AbortError");
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("a user abort during a hung request rejects with the signal's reason and closes the socket", async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 30);
    const error = await rejection(
      testTransport(server.url).fetchFor(
        { signal: controller.signal },
        { idempotent: true },
      )(`${server.url}/x`),
    );
    expect(error).toBe(reason);
    await server.requests[0]?.done;
    expect(server.requests[0]?.closedEarly).toBe(true);
  });

  it("an already-aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      testTransport(server.url).fetchFor(
        { signal: controller.signal },
        { idempotent: true },
      )(`${server.url}/x`),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(server.requests).toHaveLength(0);
  });
});
