// The logger events of a call can be joined, and the `api-clients:call` / `api-clients:attempt`
// tracing channels carry what a tracer needs (and never the request's headers or secrets).
import { tracingChannel } from "node:diagnostics_channel";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFinished,
} from "vitest";
import {
  AbortError,
  InternalServerError,
  InvalidResponseError,
  type AttemptTrace,
  type CallTrace,
  type LogEvent,
} from "../../src/index.js";
import { rejection, SECRET, testApi } from "../support/api.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const NOW = { "retry-after-ms": "0" };

/** Runs `body` with a logger; returns what it logged. */
async function logged(body: (logger: (event: LogEvent) => void) => Promise<unknown>) {
  const events: LogEvent[] = [];
  await body((event) => events.push(event)).catch(() => undefined);
  return events;
}

describe("logger events that can be joined", () => {
  it("every event carries the call's id, operationId and path template", async () => {
    server.enqueue(
      { status: 503, headers: NOW },
      { status: 200, body: {} },
      { status: 200, body: {} },
    );
    const events = await logged(async (logger) => {
      const api = testApi(server.url, { logger });
      await api.request("getItem", { path: { id: "a" } });
      await api.request("getItem", { path: { id: "b" } });
    });
    expect(events.map((e) => e.type)).toEqual([
      "request",
      "response",
      "retry",
      "request",
      "response",
      "request",
      "response",
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ operationId: "getItem", path: "/items/{id}", method: "GET" });
    }
    const ids = events.map((e) => e.callId);
    expect(new Set(ids.slice(0, 5)).size).toBe(1);
    expect(ids[5]).toBe(ids[6]);
    expect(ids[5]).not.toBe(ids[0]);
  });

  it("url keeps the path and names the query parameters without their values", async () => {
    server.enqueue({ status: 200, body: {} });
    const events = await logged((logger) =>
      testApi(server.url, { logger }).request("getThing", {
        query: { cursor: "c-secret", count: 7 },
      }),
    );
    expect(events[0]?.url).toBe(`${server.url}/thing?cursor&count`);
    expect(JSON.stringify(events)).not.toContain("c-secret");
  });

  it("a call that succeeds ends with its response and has no error event", async () => {
    server.enqueue({ status: 200, body: [] });
    const events = await logged((logger) =>
      testApi(server.url, { logger }).request("listItems", {}),
    );
    expect(events.at(-1)?.type).toBe("response");
    expect(events.some((e) => e.type === "error")).toBe(false);
  });

  // Each case has a server of its own, closed when the case ends: a request that a timeout, a deadline or an
  // abort cut off on a busy machine may still arrive later, and must not take the next test's replies.
  const failures: [
    string,
    (server: TestServer) => void,
    Record<string, unknown>,
    (error: unknown) => boolean,
  ][] = [
    [
      "an HTTP error after retries",
      (server) =>
        server.enqueue(...Array.from({ length: 3 }, () => ({ status: 503, headers: NOW }))),
      {},
      (e) => e instanceof InternalServerError,
    ],
    [
      "a body the spec does not promise",
      (server) => server.enqueue({ status: 200, body: [1, 2] }),
      {},
      (e) => e instanceof InvalidResponseError,
    ],
    [
      "a timeout",
      (server) => server.enqueue({ hang: true }),
      { timeoutMs: 50, maxRetries: 0 },
      (e) => e instanceof Error && e.name === "TimeoutError",
    ],
    [
      "the call's deadline",
      (server) => server.enqueue({ hang: true }),
      { deadlineMs: 100 },
      (e) => e instanceof Error && e.name === "DeadlineExceededError",
    ],
    [
      "an abort during the backoff",
      (server) => server.enqueue({ status: 503, headers: { "retry-after": "5" } }),
      { abortOn: "retry" },
      (e) => e instanceof AbortError,
    ],
    [
      "an abort while the response is awaited",
      (server) => server.enqueue({ hang: true }),
      { abortOn: "request" },
      (e) => e instanceof AbortError,
    ],
  ];
  it.each(failures)(
    "a call that fails with %s ends with exactly one error event",
    async (_name, arrange, opts, isExpected) => {
      const server = await startTestServer();
      onTestFinished(() => server.close());
      arrange(server);
      const { abortOn, ...call } = opts as { abortOn?: string };
      const controller = new AbortController();
      const events: LogEvent[] = [];
      const api = testApi(server.url, {
        logger: (event) => {
          events.push(event);
          if (event.type === abortOn) setTimeout(() => controller.abort(), 20);
        },
      });
      const error = await rejection(
        api.request("getThing", {}, { ...call, signal: controller.signal }),
      );
      expect(isExpected(error)).toBe(true);
      expect(events.filter((e) => e.type === "error")).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: "error", error: (error as Error).message });
      expect(new Set(events.map((e) => e.callId)).size).toBe(1);
    },
  );
});

/** Subscribes to both channels; collects what they publish. */
function subscribe() {
  const seen: { channel: string; event: string; context: CallTrace | AttemptTrace }[] = [];
  const handlers = (channel: string) =>
    Object.fromEntries(
      (["start", "end", "asyncStart", "asyncEnd", "error"] as const).map((event) => [
        event,
        (context: unknown) => {
          seen.push({ channel, event, context: { ...(context as CallTrace) } });
          if (channel === "attempt" && event === "start") {
            (context as AttemptTrace).setHeader(
              "traceparent",
              `00-${"a".repeat(32)}-${"b".repeat(16)}-01`,
            );
            (context as AttemptTrace).setHeader("authorization", "Bearer stolen");
          }
        },
      ]),
    );
  const call = tracingChannel("api-clients:call");
  const attempt = tracingChannel("api-clients:attempt");
  const callHandlers = handlers("call");
  const attemptHandlers = handlers("attempt");
  call.subscribe(callHandlers as never);
  attempt.subscribe(attemptHandlers as never);
  return {
    seen,
    unsubscribe: () => {
      call.unsubscribe(callHandlers as never);
      attempt.unsubscribe(attemptHandlers as never);
    },
  };
}

describe("tracing channels", () => {
  let tracing: ReturnType<typeof subscribe>;
  beforeEach(() => {
    tracing = subscribe();
  });
  afterEach(() => tracing.unsubscribe());

  it("one call context and one attempt context per attempt, in order, with the named fields", async () => {
    server.enqueue(
      { status: 503, headers: { "retry-after-ms": "30" } },
      { status: 200, body: { ok: 1 } },
    );
    await testApi(server.url).request("getThing", { query: { count: 3 } });
    expect(tracing.seen.map((s) => `${s.channel}:${s.event}`)).toEqual([
      "call:start",
      "call:end",
      "attempt:start",
      "attempt:end",
      "attempt:asyncStart",
      "attempt:asyncEnd",
      "attempt:start",
      "attempt:end",
      "attempt:asyncStart",
      "attempt:asyncEnd",
      "call:asyncStart",
      "call:asyncEnd",
    ]);
    const identity = {
      api: "test",
      operationId: "getThing",
      method: "GET",
      path: "/thing",
      url: `${server.url}/thing?count`,
    };
    const callEnd = tracing.seen.at(-1)?.context;
    expect(callEnd).toEqual({
      ...identity,
      callId: expect.any(String) as string,
      attempt: 2,
      status: 200,
      bytes: 8,
      rateLimitWaitMs: 0,
    });
    const attempts = tracing.seen.filter((s) => s.channel === "attempt" && s.event === "asyncEnd");
    expect(attempts.map((s) => s.context)).toEqual([
      {
        ...identity,
        callId: callEnd?.callId,
        attempt: 1,
        status: 503,
        retryDelayMs: 30,
        rateLimitWaitMs: 0,
        setHeader: expect.any(Function) as unknown,
      },
      {
        ...identity,
        callId: callEnd?.callId,
        attempt: 2,
        status: 200,
        bytes: 8,
        rateLimitWaitMs: 0,
        setHeader: expect.any(Function) as unknown,
      },
    ]);
  });

  it("a start subscriber adds trace headers to the attempt, but never authorization", async () => {
    server.enqueue({ status: 503, headers: NOW }, { status: 200, body: {} });
    await testApi(server.url).request("getThing", {});
    for (const request of server.requests) {
      expect(request.headers.traceparent).toBe(`00-${"a".repeat(32)}-${"b".repeat(16)}-01`);
      expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    }
  });

  it("a failed call publishes error with the typed error; contexts never carry secrets or headers", async () => {
    server.enqueue(
      ...Array.from({ length: 2 }, () => ({ status: 500, headers: NOW, body: { error: SECRET } })),
    );
    const error = await rejection(
      testApi(server.url, { maxRetries: 1 }).request("getThing", { query: { cursor: SECRET } }),
    );
    const errors = tracing.seen.filter((s) => s.event === "error");
    expect(errors.map((s) => s.channel)).toEqual(["attempt", "call"]);
    expect(errors[1]?.context.error).toBe(error);
    for (const { context } of tracing.seen) {
      const { error: _error, ...rest } = context;
      expect(JSON.stringify(rest)).not.toContain(SECRET);
      expect(Object.keys(rest)).not.toContain("headers");
    }
  });

  it("an abort ends the call and its attempt with the AbortError", async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const pending = testApi(server.url).request("getThing", {}, { signal: controller.signal });
    // Abort once the request is at the server: an abort on a timer may come before the request is
    // sent on a busy machine, and the request then arrives during the next test and takes its reply.
    await server.waitForRequests(1);
    controller.abort();
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(AbortError);
    const ends = tracing.seen.filter((s) => s.event === "asyncEnd");
    expect(ends.map((s) => [s.channel, s.context.error])).toEqual([
      ["attempt", error],
      ["call", error],
    ]);
  });

  it("raw calls are traced too, an HTTP error answer included", async () => {
    server.enqueue({ status: 404, body: { error: "no" } });
    const api = testApi(server.url);
    const { response } = await api.raw.GET("/items/{id}", { params: { path: { id: "x" } } });
    expect(response.status).toBe(404);
    const end = tracing.seen.filter((s) => s.channel === "call").at(-1);
    expect(end?.event).toBe("asyncEnd");
    expect(end?.context).toMatchObject({ operationId: "getItem", status: 404 });
    expect((end?.context.error as Error).name).toBe("NotFoundError");
  });
});

describe("nobody subscribed", () => {
  it("adds no header and leaves the channels without subscribers", async () => {
    const call = tracingChannel("api-clients:call");
    expect(call.hasSubscribers).toBe(false);
    server.enqueue({ status: 200, body: {} });
    await testApi(server.url).request("getThing", {});
    expect(server.requests[0]?.headers.traceparent).toBeUndefined();
  });
});
