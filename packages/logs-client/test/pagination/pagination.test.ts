import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient } from "../../src/index.js";
import {
  makeEntries,
  pagingResponder,
  startTestServer,
  type TestServer,
} from "../support/log-server.js";

const ENTRIES = makeEntries(2_345);
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ handler: pagingResponder(ENTRIES) });
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const client = () => createLogsClient({ token: "t", baseUrl: server.url });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("iterate() and pages()", () => {
  it("yield every entry exactly once and in order across pages", async () => {
    const ids: string[] = [];
    for await (const entry of client().iterate({ count: 100, state: "delivered" }))
      ids.push(entry.messageId);
    expect(ids).toEqual(ENTRIES.map((e) => e.messageId));
    expect(server.requests).toHaveLength(24);
    // Every page was requested once, with the filters kept on every page.
    const cursors = server.requests.map((r) => r.query.get("cursor"));
    expect(new Set(cursors).size).toBe(24);
    expect(server.requests.every((r) => r.query.get("state") === "DELIVERED")).toBe(true);
  });

  it("pages() yields normalized pages and stops at the page without a cursor", async () => {
    const sizes: number[] = [];
    let last: { cursor?: string } = {};
    for await (const page of client().pages({ count: 1000 })) {
      sizes.push(page.events.length);
      last = page;
    }
    expect(sizes).toEqual([1000, 1000, 345]);
    expect(last).not.toHaveProperty("cursor");
  });

  it("starts from the cursor given in the filters", async () => {
    const ids: string[] = [];
    for await (const entry of client().iterate({
      count: 1000,
      cursor: `${ENTRIES[2000]!.time}-2000`,
    })) {
      ids.push(entry.messageId);
    }
    expect(ids).toEqual(ENTRIES.slice(2000).map((e) => e.messageId));
  });

  it("fetches the next page while the consumer works on the current one, never more than one ahead", async () => {
    const requestsSeenAtYield: number[] = [];
    for await (const _page of client().pages({ count: 500 })) {
      // The prefetch of page k+1 has reached the server (waited for: on a busy machine it may take
      // a while); then 30 ms in which a request for page k+2 (there must be none) would show.
      await server.waitForRequests(Math.min(requestsSeenAtYield.length + 2, 5));
      await sleep(30);
      requestsSeenAtYield.push(server.requests.length);
    }
    // While page k (0-based) is consumed, page k+1 has been requested, but not page k+2.
    expect(requestsSeenAtYield).toEqual([2, 3, 4, 5, 5]);
  });

  it("with prefetch off, asks for a page only when the consumer wants it", async () => {
    const requestsSeenAtYield: number[] = [];
    for await (const _page of client().pages({ count: 500 }, { prefetch: false })) {
      await sleep(10);
      requestsSeenAtYield.push(server.requests.length);
    }
    expect(requestsSeenAtYield).toEqual([1, 2, 3, 4, 5]);
  });

  it("breaking out aborts the request in flight and leaves none behind", async () => {
    server.setHandler((request) =>
      request.query.get("cursor") === null ? pagingResponder(ENTRIES)(request) : { hang: true },
    );
    try {
      let seen = 0;
      for await (const _entry of client().iterate({ count: 10 })) {
        // Wait until the prefetch of page 2 is at the server (it hangs there), then leave the loop.
        if (++seen === 1) await server.waitForRequests(2);
        if (seen === 3) break;
      }
      expect(seen).toBe(3);
      await server.requests[1]!.done;
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.closedEarly).toBe(true);
      expect(server.inFlight()).toBe(0);
    } finally {
      server.setHandler(pagingResponder(ENTRIES));
    }
  });

  it("a user signal stops the iteration", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const entry of client().iterate({ count: 100 }, { signal: controller.signal })) {
          seen.push(entry.messageId);
          if (seen.length === 150) controller.abort(new Error("stop here"));
        }
      })(),
    ).rejects.toThrow("stop here");
    expect(seen.length).toBeLessThanOrEqual(200);
  });

  it("stops with an error when the server hands out the same cursor twice", async () => {
    server.setHandler(() => ({ status: 200, body: { cursor: "1-1", events: [] } }));
    try {
      const pages = client().pages({}, { prefetch: false });
      await expect(async () => {
        for await (const _ of pages);
      }).rejects.toThrow(/cursor did not advance/);
      // (Requests with a `count` are stragglers of the aborted iterations above.)
      const ours = server.requests.filter((r) => !r.query.has("count"));
      expect(ours.map((r) => r.query.get("cursor"))).toEqual([null, "1-1"]);
    } finally {
      server.setHandler(pagingResponder(ENTRIES));
    }
  });
});
