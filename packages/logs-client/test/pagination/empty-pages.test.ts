// Issue #12, item 8: a server that answers empty pages with a fresh cursor forever is not followed
// forever: paging stops with a typed error after `maxEmptyPages` empty pages in a row.
import { ApiClientError } from "@api-clients/core";
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

/** Page 0 has one entry; every later page is empty and points at a new cursor, forever. */
function endlessEmptyPages(): void {
  const [entry] = makeEntries(1);
  server.setHandler((request) => {
    const n = Number(request.query.get("cursor") ?? "0");
    return { status: 200, body: { events: n === 0 ? [entry] : [], cursor: String(n + 1) } };
  });
}

describe("endless empty pages", () => {
  it("stop iterate() after maxEmptyPages in a row, naming the cursor to resume from", async () => {
    endlessEmptyPages();
    const got: unknown[] = [];
    const error = await (async () => {
      for await (const entry of client().iterate({}, { maxEmptyPages: 20, prefetch: false })) {
        got.push(entry);
      }
    })().catch((e: unknown) => e);
    expect(got).toHaveLength(1);
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as Error).message).toBe(
      'Pagination stopped: 20 empty pages in a row, each with a new cursor (maxEmptyPages is 20); resume from cursor "21"',
    );
    expect(server.requests).toHaveLength(21);
  });

  it("stop after 100 by default", async () => {
    endlessEmptyPages();
    const error = await (async () => {
      for await (const _page of client().pages()) {
        // keep paging
      }
    })().catch((e: unknown) => e);
    expect((error as Error).message).toContain("100 empty pages in a row");
    // At most one page is fetched ahead of the one that stops it.
    expect(server.requests.length).toBeLessThanOrEqual(102);
  });

  it("a few empty pages between full ones are followed to the end", async () => {
    const entries = makeEntries(6);
    server.setHandler((request) => {
      const n = Number(request.query.get("cursor") ?? "0");
      const events = n % 4 === 3 ? entries.slice(n / 4 - 0.75, n / 4 + 0.25) : [];
      return { status: 200, body: n < 23 ? { events, cursor: String(n + 1) } : { events } };
    });
    const got: unknown[] = [];
    for await (const entry of client().iterate({}, { maxEmptyPages: 4 })) got.push(entry);
    expect(got).toEqual(entries);
  });
});
