import { RateLimitError } from "@api-clients/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const ok = { status: 200, body: { events: [{ time: 1, messageId: "m", state: "DELIVERED" }] } };
const client = () => createLogsClient({ token: "t", baseUrl: server.url });

describe("list() retries what is safe to retry", () => {
  it("503 then 200 succeeds on the second attempt", async () => {
    server.enqueue(
      { status: 503, body: { error: "busy" }, headers: { "retry-after-ms": "10" } },
      ok,
    );
    const page = await client().list();
    expect(page.events).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ["whole seconds", "1", 1_000],
    ["fractional seconds", "0.15", 150],
  ])("429 with Retry-After in %s waits that long", async (_, retryAfter, waitMs) => {
    server.enqueue(
      { status: 429, body: { error: "slow down" }, headers: { "Retry-After": retryAfter } },
      ok,
    );
    await client().list();
    expect(server.requests).toHaveLength(2);
    const waited = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(waitMs - 5);
    expect(waited).toBeLessThan(waitMs + 1_000);
  });

  it("gives up after maxRetries and throws the last error", async () => {
    const limited = {
      status: 429,
      body: { error: "still limited" },
      headers: { "retry-after-ms": "5" },
    };
    server.enqueue(limited, limited, limited, ok);
    await expect(client().list({}, { maxRetries: 2 })).rejects.toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(3);
  });

  it("a user abort during the backoff sleep rejects at once", async () => {
    server.enqueue({ status: 503, body: { error: "busy" }, headers: { "Retry-After": "30" } }, ok);
    const controller = new AbortController();
    const pending = client().list({}, { signal: controller.signal });
    await server.waitForRequests(1);
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("user gave up")), 20);
    await expect(pending).rejects.toThrow("user gave up");
    // Long before the 30 s sleep ends (5 s leaves room for a busy machine).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });
});
