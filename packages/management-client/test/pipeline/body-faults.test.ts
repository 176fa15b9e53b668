// Issue #12, items 2, 3 and 9: a failure while the body is read is an attempt failure (retried for a
// safe-to-repeat operation, never for a non-idempotent one), the body size is bounded, and only the
// Retry-After forms HTTP allows are honoured.
import {
  ConnectionError,
  InvalidResponseError,
  NotFoundError,
  TimeoutError,
  type LogEvent,
} from "@api-clients/core";
import { describe, expect, it } from "vitest";
import { database } from "../support/fixtures.js";
import {
  useTestServer,
  logsAt,
  managementAt,
  rejection,
  type ScriptedResponse,
} from "../support/both-clients.js";

const server = useTestServer();

/** Long enough for every answer on a busy machine; the stalled and dripping bodies take longer. */
const TIMEOUT_MS = 1_000;
const PAGE = { events: [{ time: 1, messageId: "m1", state: "DELIVERED" }], pad: "x".repeat(4_000) };
const CREATE = { name: "cache", primary_region: "eu-west-1" } as const;

const bodyFaults: Array<
  [string, ScriptedResponse, abstract new (...args: never[]) => ConnectionError]
> = [
  [
    "a connection reset mid-body",
    { status: 200, body: PAGE, resetAfterBytes: 200 },
    ConnectionError,
  ],
  ["a stalled body", { status: 200, body: PAGE, stallAfterBytes: 200 }, TimeoutError],
  [
    "a dripping body (one byte every 20 ms)",
    { status: 200, body: { events: [], pad: "x".repeat(100) }, dripIntervalMs: 20 },
    TimeoutError,
  ],
];

describe("a failure while reading the body", () => {
  it.each(bodyFaults)("%s is retried for GET, counting the attempts", async (_name, fault) => {
    server.enqueue(fault, fault, { status: 200, body: PAGE });
    const events: LogEvent[] = [];
    const logs = logsAt(server.url, {
      timeoutMs: TIMEOUT_MS,
      logger: (event) => events.push(event),
    });
    expect((await logs.list()).events).toEqual(PAGE.events);
    expect(server.requests).toHaveLength(3);
    expect(events.filter((event) => event.type === "retry")).toHaveLength(2);
  });

  it.each(bodyFaults)(
    "%s fails after maxRetries + 1 attempts with the typed error",
    async (_name, fault, ErrorClass) => {
      server.enqueue(fault, fault, fault);
      const error = await rejection(logsAt(server.url, { timeoutMs: TIMEOUT_MS }).list());
      expect(error).toBeInstanceOf(ErrorClass);
      expect((error as ConnectionError).attempts).toBe(3);
      expect((error as Error).message).toMatch(/, after 3 attempts$/);
      expect(server.requests).toHaveLength(3);
    },
  );

  it.each(bodyFaults)(
    "%s is not retried for a non-idempotent POST",
    async (_name, fault, ErrorClass) => {
      server.enqueue(
        { ...fault, body: { ...database, pad: "x".repeat(4_000) } },
        { status: 200, body: database },
      );
      const m = managementAt(server.url, { timeoutMs: TIMEOUT_MS });
      const error = await rejection(m.databases.create(CREATE));
      expect(error).toBeInstanceOf(ErrorClass);
      expect((error as ConnectionError).attempts).toBe(1);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.method).toBe("POST");
    },
  );

  it("one transient reset on page 2 does not abort iterate()", async () => {
    const entries = Array.from({ length: 6 }, (_, i) => ({
      time: i,
      messageId: `m${i}`,
      state: "DELIVERED",
    }));
    const page = (n: number) => ({
      events: entries.slice(2 * n, 2 * n + 2),
      ...(n < 2 ? { cursor: `c${n + 1}` } : {}),
    });
    server.enqueue(
      { status: 200, body: page(0) },
      { status: 200, body: { ...page(1), pad: "x".repeat(4_000) }, resetAfterBytes: 50 },
      { status: 200, body: page(1) },
      { status: 200, body: page(2) },
    );
    const got: unknown[] = [];
    for await (const entry of logsAt(server.url).iterate()) got.push(entry);
    expect(got).toEqual(entries);
    expect(server.requests.map((r) => r.query.get("cursor"))).toEqual([null, "c1", "c1", "c2"]);
  });
});

describe("maxResponseBytes through the clients", () => {
  const LIMIT = 256 * 1024;
  const reason = `response body is larger than maxResponseBytes (${LIMIT} bytes)`;

  it("a page larger than the limit fails logs.list() with the limit in the message", async () => {
    server.enqueue({ status: 200, streamBytes: 50 * LIMIT, chunked: true });
    const error = await rejection(logsAt(server.url, { maxResponseBytes: LIMIT }).list());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe(`200 OK: ${reason} (GET ${server.url}/v2/logs)`);
    expect(server.requests).toHaveLength(1);
  });

  it("so does a huge error body, for a management read", async () => {
    server.enqueue({ status: 404, streamBytes: 50 * LIMIT });
    const m = managementAt(server.url, { maxResponseBytes: LIMIT });
    const error = await rejection(m.databases.get("db1"));
    // Issue #24, item 20: it keeps the class of its status, without the body.
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(404);
    expect((error as NotFoundError).body).toBeUndefined();
    expect((error as Error).message).toBe(
      `404 Not Found (GET ${server.url}/v2/redis/database/db1); ${reason}, not read`,
    );
  });

  it("the default limit is 8 MiB", async () => {
    server.enqueue({ status: 200, streamBytes: 9 * 1024 * 1024, chunked: true });
    const error = await rejection(logsAt(server.url).list());
    expect((error as Error).message).toContain(
      "response body is larger than maxResponseBytes (8388608 bytes)",
    );
  });
});

describe("Retry-After", () => {
  it.each([["0x2"], ["2e0"], ["+2"], ["2.5"]])(
    "%s is not a form HTTP allows: ignored, the client backs off instead",
    async (value) => {
      server.enqueue(
        { status: 429, headers: { "retry-after": value } },
        { status: 200, body: { events: [] } },
      );
      const events: LogEvent[] = [];
      await logsAt(server.url, { logger: (event) => events.push(event) }).list();
      const retry = events.find((event) => event.type === "retry");
      expect(retry).toMatchObject({ type: "retry", reason: "status 429" });
      const { delayMs } = retry as { delayMs: number };
      expect(delayMs).toBeGreaterThanOrEqual(375);
      expect(delayMs).toBeLessThanOrEqual(500);
    },
  );

  it("delta-seconds and retry-after-ms are honoured", async () => {
    const events: LogEvent[] = [];
    const logs = logsAt(server.url, { logger: (event) => events.push(event) });
    server.enqueue(
      { status: 429, headers: { "retry-after-ms": "30" } },
      { status: 200, body: { events: [] } },
    );
    await logs.list();
    expect(events.find((event) => event.type === "retry")).toMatchObject({ delayMs: 30 });
    events.length = 0;
    const controller = new AbortController();
    server.enqueue({ status: 429, headers: { "retry-after": "2" } });
    const aborting = logsAt(server.url, {
      logger: (event) => {
        events.push(event);
        if (event.type === "retry") controller.abort();
      },
    });
    await rejection(aborting.list({}, { signal: controller.signal }));
    expect(events.find((event) => event.type === "retry")).toMatchObject({ delayMs: 2000 });
  });
});
