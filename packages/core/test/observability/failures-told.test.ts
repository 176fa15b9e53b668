// Issue #30, items 4 and 5: every failed attempt is told as failed, `maybeApplied` says when a change
// may have reached the server, and tracing (subscribers and the logger) cannot hurt a call.
import { tracingChannel } from "node:diagnostics_channel";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  AbortError,
  ApiClientError,
  ConnectionError,
  DeadlineExceededError,
  InvalidResponseError,
  NotFoundError,
  TimeoutError,
  type AttemptTrace,
  type LogEvent,
} from "../../src/index.js";
import { rejection, testApi } from "../support/api.js";
import { useTestServer } from "../support/test-server.js";

const server = useTestServer();

/** Subscribes `start` and `asyncEnd` handlers to the attempt channel alone, for this test. */
function onAttempts(handlers: {
  start?(ctx: AttemptTrace): void;
  asyncEnd?(ctx: AttemptTrace): void;
}) {
  const channel = tracingChannel("api-clients:attempt");
  const all = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {}, ...handlers };
  channel.subscribe(all as never);
  onTestFinished(() => channel.unsubscribe(all as never));
}

/** Holds the thread for `ms` milliseconds (a slow synchronous hook). */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("a failed attempt is told as failed (item 4)", () => {
  it.each([
    ["a reset connection", { reset: true }, {}, ConnectionError],
    ["a timeout", { hang: true }, { timeoutMs: 100 }, TimeoutError],
  ] as const)(
    "%s that is retried carries its error to the attempt channel and the logger",
    async (_, fault, options, Class) => {
      server.enqueue(fault, { status: 200, body: {} });
      const ended: AttemptTrace[] = [];
      onAttempts({ asyncEnd: (ctx) => void ended.push({ ...ctx }) });
      const events: LogEvent[] = [];
      await testApi(server.url, { ...options, logger: (e) => void events.push(e) }).request(
        "getThing",
      );
      expect(ended.map((ctx) => ctx.error instanceof Class)).toEqual([true, false]);
      const retry = events.find((e) => e.type === "retry");
      expect(retry).toMatchObject({ attempt: 1, error: (ended[0]!.error as Error).message });
    },
  );
});

describe("maybeApplied (item 4)", () => {
  it("is true when the only attempt of a state-changing call timed out", async () => {
    server.enqueue({ hang: true });
    const error = await rejection(
      testApi(server.url, { timeoutMs: 100 }).request("createThing", { body: { name: "a" } }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as ApiClientError).maybeApplied).toBe(true);
  });

  it("is true when the only attempt was reset after the request was sent", async () => {
    server.enqueue({ reset: true });
    const error = await rejection(
      testApi(server.url).request("createThing", { body: { name: "a" } }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ApiClientError).maybeApplied).toBe(true);
  });

  it("is false when the connection was refused (nothing was sent)", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const error = await rejection(
      testApi(url, { maxRetries: 0 }).request("createThing", { body: { name: "a" } }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ApiClientError).maybeApplied).toBe(false);
  });

  it("is kept when the call is aborted during the wait after an uncertain attempt", async () => {
    server.enqueue({ reset: true }, { status: 200, body: "OK" });
    const controller = new AbortController();
    const logger = (event: LogEvent) => {
      if (event.type === "retry") controller.abort();
    };
    const error = await rejection(
      testApi(server.url, { logger }).request(
        "toggle",
        { path: { id: "a" } },
        { signal: controller.signal },
      ),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as ApiClientError).maybeApplied).toBe(true);
  });

  it("is kept when the deadline leaves no room for the retry after an uncertain attempt", async () => {
    server.enqueue({ reset: true });
    const error = await rejection(
      testApi(server.url, { deadlineMs: 200 }).request("toggle", { path: { id: "a" } }),
    );
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as ApiClientError).maybeApplied).toBe(true);
  });
});

describe("a `fetch` option and redirects (item 4)", () => {
  it("a `fetch` option resolving to no Response is an InvalidResponseError naming it, sent once", async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return undefined;
    }) as unknown as typeof globalThis.fetch;
    const error = await rejection(testApi(server.url, { fetch }).request("getThing"));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain(
      "the `fetch` option resolved to undefined, not a Response",
    );
    expect(calls).toBe(1);
  });

  it("a redirect loop has its own class, not a ConnectionError, and is not retried", async () => {
    server.setHandler(() => ({ status: 302, headers: { location: "/thing" } }));
    const error = await rejection(testApi(server.url).request("getThing"));
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as Error).name).toBe("RedirectLoopError");
    expect(server.requests).toHaveLength(21);
  });
});

describe("tracing cannot hurt the call (item 5)", () => {
  it("a subscriber of the attempt channel alone is honoured: its traceparent is sent", async () => {
    server.enqueue({ status: 200, body: {} });
    onAttempts({
      start: (ctx) => ctx.setHeader("traceparent", `00-${"a".repeat(32)}-${"b".repeat(16)}-01`),
    });
    await testApi(server.url).request("getThing");
    expect(server.requests[0]?.headers.traceparent).toBe(
      `00-${"a".repeat(32)}-${"b".repeat(16)}-01`,
    );
  });

  it("a subscriber's refused header never fails the call; it is dropped with a warning", async () => {
    server.enqueue({ status: 200, body: {} });
    onAttempts({ start: (ctx) => ctx.setHeader("content-length", "5") });
    const events: LogEvent[] = [];
    await testApi(server.url, { logger: (e) => void events.push(e) }).request("getThing");
    expect(server.requests).toHaveLength(1);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "warning",
        message: "a tracing subscriber's header was not set: content-length",
      }),
    );
  });

  it("a slow logger does not carry the call past its deadline: nothing is sent once it passed", async () => {
    server.enqueue({ hang: true });
    const logger = (event: LogEvent) => {
      if (event.type === "request") block(400);
    };
    const error = await rejection(
      testApi(server.url, { deadlineMs: 300, logger }).request("getThing"),
    );
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(server.requests).toHaveLength(0);
  });

  it("a 10 KB id (near the server's header limit) gives bounded messages, trace URLs and logged URLs, cut with a marker", async () => {
    server.enqueue({ status: 404, body: { error: "not found" } });
    const urls: string[] = [];
    onAttempts({ start: (ctx) => void urls.push(ctx.url) });
    const events: LogEvent[] = [];
    const id = "x".repeat(10_000);
    const error = await rejection(
      testApi(server.url, { logger: (e) => void events.push(e) }).request("getItem", {
        path: { id },
      }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message.length).toBeLessThanOrEqual(2048);
    expect((error as Error).message).toContain("…");
    expect(urls[0]!.length).toBeLessThanOrEqual(2048);
    for (const event of events) expect(event.url.length).toBeLessThanOrEqual(2048);
    expect(events.find((e) => e.type === "error")?.url).toContain("…");
  });
});
