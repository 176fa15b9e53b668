import { describe, expect, it } from "vitest";
import {
  DeadlineExceededError,
  InternalServerError,
  TimeoutError,
  ValidationError,
} from "../../src/index.js";
import { useTestServer } from "../support/test-server.js";
import { timerLateness } from "../support/timing.js";
import { rejection, testApi } from "../support/api.js";

const server = useTestServer();

describe("deadlineMs bounds a whole call", () => {
  it("a server that never answers: fails in 2.0–2.5 s with an error naming the deadline", async () => {
    server.setHandler(() => ({ hang: true }));
    const started = performance.now();
    const lateness = timerLateness(2000);
    const error = await rejection(
      testApi(server.url, { deadlineMs: 2000 }).request("getThing", {}),
    );
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as DeadlineExceededError).deadlineMs).toBe(2000);
    expect((error as Error).message).toContain("deadline of 2000 ms (deadlineMs)");
    expect(elapsed).toBeGreaterThanOrEqual(1990);
    // 2.5 s, plus however late this machine fired a plain timer of the same length just now.
    expect(elapsed).toBeLessThanOrEqual(2500 + (await lateness));
  });

  it("503 with Retry-After: 30 fails at once instead of waiting past the deadline", async () => {
    server.enqueue(
      { status: 503, headers: { "retry-after": "30" }, body: { error: "busy" } },
      { status: 200, body: { ok: true } },
    );
    const started = performance.now();
    const error = await rejection(
      testApi(server.url, { deadlineMs: 2000 }).request("getThing", {}),
    );
    expect(performance.now() - started).toBeLessThan(1500);
    expect(server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toContain(
      "not retried: the wait of 30 s before the next attempt would end after the call's deadline of 2000 ms (deadlineMs)",
    );
  });

  it("the per-call deadlineMs overrides the client's", async () => {
    server.setHandler(() => ({ hang: true }));
    const api = testApi(server.url, { deadlineMs: 60_000 });
    const error = await rejection(api.request("getThing", {}, { deadlineMs: 300 }));
    expect((error as DeadlineExceededError).deadlineMs).toBe(300);
  });

  it("a connection error whose retry would pass the deadline names the deadline and the last failure", async () => {
    server.enqueue({ reset: true });
    const error = await rejection(testApi(server.url, { deadlineMs: 100 }).request("getThing", {}));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(/deadline of 100 ms.*last attempt: Connection failed/);
  });

  it.each([0, -1, Number.NaN, 2 ** 31, "1000"])("rejects deadlineMs %s", (value) => {
    expect(() => testApi(server.url, { deadlineMs: value as number })).toThrow(ValidationError);
  });
});
