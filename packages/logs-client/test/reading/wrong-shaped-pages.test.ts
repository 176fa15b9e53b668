// Issue #12, item 1: a 200 that is not a log page is an error, never an empty last page; a numeric
// cursor is read as its decimal string, never as "no more pages".
import { InvalidResponseError } from "@api-clients/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient } from "../../src/index.js";
import { makeEntries, startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => {
  server.reset();
  server.setHandler(undefined);
});
afterAll(() => server.close());

const client = () => createLogsClient({ token: "t", baseUrl: server.url, maxRetries: 0 });

async function drain<T>(items: AsyncIterable<T>): Promise<{ got: T[]; error: unknown }> {
  const got: T[] = [];
  try {
    for await (const item of items) got.push(item);
  } catch (error) {
    return { got, error };
  }
  return { got, error: undefined };
}

const WRONG_PAGES: Array<[string, unknown, string]> = [
  ["{}", {}, "expected a log page with an `events` or `logs` array"],
  [
    '{"error": …}',
    { error: "upstream exploded" },
    "expected a log page with an `events` or `logs` array",
  ],
  ['{"status": "ok"}', { status: "ok" }, "expected a log page with an `events` or `logs` array"],
  ["events that is not an array", { events: { a: 1 } }, "expected `events` to be an array"],
  ["a JSON array", [], "expected a JSON object"],
];

describe("a 200 that is not a log page", () => {
  it.each(WRONG_PAGES)("%s from list() is an InvalidResponseError", async (_name, body, reason) => {
    server.enqueue({ status: 200, body });
    const error = await client()
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).status).toBe(200);
    expect((error as Error).message).toContain(reason);
    expect((error as Error).message).toContain(`(GET ${server.url}/v2/logs)`);
  });

  it.each(WRONG_PAGES)(
    "%s as page 2 stops iterate() with an InvalidResponseError",
    async (_name, body) => {
      const entries = makeEntries(3);
      server.enqueue(
        { status: 200, body: { events: entries, cursor: "c2" } },
        { status: 200, body },
      );
      const { got, error } = await drain(client().iterate());
      expect(got).toEqual(entries);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(server.requests.map((r) => r.query.get("cursor"))).toEqual([null, "c2"]);
    },
  );

  it("an error body with status 200 is not taken for the end of the logs", async () => {
    server.enqueue({ status: 200, body: { error: "rate limited" } });
    const { got, error } = await drain(client().pages());
    expect(got).toEqual([]);
    expect((error as Error).message).toContain("rate limited");
  });
});

describe("a numeric cursor", () => {
  it("is read as its decimal string by list()", async () => {
    server.enqueue({ status: 200, body: { events: [], cursor: 1_700_000_000_123 } });
    expect(await client().list()).toEqual({ events: [], cursor: "1700000000123" });
  });

  it("keeps iterate() going, sent back as the same decimal string", async () => {
    const entries = makeEntries(4);
    server.enqueue(
      { status: 200, body: { events: entries.slice(0, 2), cursor: 42 } },
      { status: 200, body: { events: entries.slice(2) } },
    );
    const { got, error } = await drain(client().iterate());
    expect(error).toBeUndefined();
    expect(got).toEqual(entries);
    expect(server.requests.map((r) => r.query.get("cursor"))).toEqual([null, "42"]);
  });

  it("that is not exact (beyond 2^53) or not an integer is an InvalidResponseError", async () => {
    for (const cursor of ["1e300", "1.5", "18014398509481985"]) {
      server.enqueue({
        status: 200,
        body: `{"events":[],"cursor":${cursor}}`,
        headers: { "content-type": "application/json" },
      });
      const error = await client()
        .list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toContain("expected `cursor` to be a string");
    }
  });
});
