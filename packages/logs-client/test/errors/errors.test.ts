import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
} from "@api-clients/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const client = (options: { timeoutMs?: number } = {}) =>
  createLogsClient({ token: "t", baseUrl: server.url, maxRetries: 0, ...options });

describe("errors carry the status, the server's message and the request", () => {
  it.each([
    [400, BadRequestError, { error: "count must be at most 1000" }, "count must be at most 1000"],
    [401, AuthenticationError, { error: "invalid token" }, "invalid token"],
    [403, PermissionDeniedError, { message: "not allowed" }, "not allowed"],
    [404, NotFoundError, "no such message", "no such message"],
    [409, ConflictError, { error: "conflict" }, "conflict"],
    [422, UnprocessableEntityError, { error: "bad filter" }, "bad filter"],
    [429, RateLimitError, { error: "slow down" }, "slow down"],
    [500, InternalServerError, { error: "boom" }, "boom"],
    [503, InternalServerError, "upstream unavailable", "upstream unavailable"],
  ] as const)("%i → %o", async (status, ErrorClass, body, message) => {
    server.enqueue({ status, body, headers: { "upstash-request-id": "req_42" } });
    const error = await client()
      .list({ count: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(status);
    expect(apiError.message).toContain(message);
    expect(apiError.message).toContain(String(status));
    expect(apiError.method).toBe("GET");
    expect(apiError.url).toBe(`${server.url}/v2/logs?count=5`);
    expect(apiError.body).toEqual(body);
    expect(apiError.requestId).toBe("req_42");
  });

  it("a 429 carries the rate-limit headers", async () => {
    server.enqueue({
      status: 429,
      body: { error: "rate limited" },
      headers: {
        "Burst-RateLimit-Limit": "100",
        "Burst-RateLimit-Remaining": "0",
        "Burst-RateLimit-Reset": "1700000000",
        "Retry-After": "120",
      },
    });
    const error = (await client()
      .list()
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(120_000);
    expect(error.rateLimit).toMatchObject({
      burstLimit: 100,
      burstRemaining: 0,
      burstReset: 1_700_000_000,
    });
  });

  it("a 200 that is not JSON is an InvalidResponseError, not a SyntaxError", async () => {
    server.enqueue({
      status: 200,
      body: "<html>maintenance</html>",
      headers: { "content-type": "text/html" },
    });
    const error = await client()
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).status).toBe(200);
    expect((error as Error).message).toContain("<html>maintenance</html>");
  });

  it.each([
    ["a JSON array", [1, 2]],
    ["a JSON string", "OK"],
    ["events that are not an array", { events: { a: 1 } }],
  ])("a 200 with %s is an InvalidResponseError", async (_, body) => {
    server.enqueue({
      status: 200,
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });
    await expect(client().list()).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it("a connection reset in the middle of the body is a ConnectionError", async () => {
    server.enqueue({
      status: 200,
      body: { events: [{ time: 1, messageId: "m", state: "X" }] },
      resetAfterBytes: 5,
    });
    const error = await client()
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it("an attempt slower than timeoutMs is a TimeoutError", async () => {
    server.enqueue({ hang: true });
    const started = performance.now();
    const error = await client({ timeoutMs: 100 })
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as TimeoutError).timeoutMs).toBe(100);
    // The 100 ms given, not the 30 s default (5 s leaves room for a busy machine).
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
