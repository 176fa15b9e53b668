import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClientError, paginate, paginateItems, readJson } from "../../src/index.js";
import { startTestServer, type Responder, type TestServer } from "../support/test-server.js";
import { rejection, testTransport } from "../support/transport.js";

interface Page {
  items: number[];
  cursor?: string;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.setHandler(undefined);
});

const PAGE_SIZE = 3;

/** Serves `total` pages; page n holds items 3n..3n+2 and points at cursor "n+1". */
function pagesOf(total: number, overrides: Record<number, ReturnType<Responder>> = {}): Responder {
  return (request) => {
    const index = Number(request.query.get("cursor") ?? "0");
    const override = overrides[index];
    if (override !== undefined) return override;
    const body: Page = {
      items: Array.from({ length: PAGE_SIZE }, (_, i) => index * PAGE_SIZE + i),
    };
    if (index + 1 < total) body.cursor = String(index + 1);
    return { status: 200, body };
  };
}

function fetchPageFrom(url: string) {
  const transport = testTransport(url, { maxRetries: 0 });
  return async (cursor: string | undefined, signal: AbortSignal): Promise<Page> => {
    const query = cursor === undefined ? "" : `?cursor=${encodeURIComponent(cursor)}`;
    const response = await transport.fetchFor(
      { signal },
      { idempotent: true },
    )(`${url}/v2/pages${query}`);
    return readJson<Page>({ data: await response.text(), response });
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("paginate", () => {
  it("yields every page once and in order, requesting each cursor once", async () => {
    server.setHandler(pagesOf(25));
    const seen: number[] = [];
    for await (const item of paginateItems(
      paginate(fetchPageFrom(server.url), (page) => page.cursor),
      (page) => page.items,
    )) {
      seen.push(item);
    }
    expect(seen).toEqual(Array.from({ length: 25 * PAGE_SIZE }, (_, i) => i));
    expect(server.requests.map((r) => r.query.get("cursor"))).toEqual([
      null,
      ...Array.from({ length: 24 }, (_, i) => String(i + 1)),
    ]);
  });

  it("prefetches at most one page ahead while the consumer is slow", async () => {
    server.setHandler(pagesOf(5));
    const countsAfterPause: number[] = [];
    let index = 0;
    for await (const page of paginate(fetchPageFrom(server.url), (p) => p.cursor)) {
      expect(server.requests.length).toBeLessThanOrEqual(index + 2);
      await sleep(80);
      countsAfterPause.push(server.requests.length);
      expect(page.items[0]).toBe(index * PAGE_SIZE);
      index++;
    }
    // While page n is consumed, page n+1 has been requested, and nothing beyond it.
    expect(countsAfterPause).toEqual([2, 3, 4, 5, 5]);
  });

  it("fetches strictly on demand with prefetch: false", async () => {
    server.setHandler(pagesOf(3));
    const counts: number[] = [];
    for await (const _page of paginate(fetchPageFrom(server.url), (p) => p.cursor, {
      prefetch: false,
    })) {
      await sleep(30);
      counts.push(server.requests.length);
    }
    expect(counts).toEqual([1, 2, 3]);
  });

  it("starts from startCursor", async () => {
    server.setHandler(pagesOf(4));
    const firsts: number[] = [];
    for await (const page of paginate(fetchPageFrom(server.url), (p) => p.cursor, {
      startCursor: "2",
    })) {
      firsts.push(page.items[0] ?? -1);
    }
    expect(firsts).toEqual([6, 9]);
  });

  it("breaking out aborts the prefetch in flight", async () => {
    server.setHandler(pagesOf(10, { 1: { hang: true } }));
    for await (const page of paginate(fetchPageFrom(server.url), (p) => p.cursor)) {
      expect(page.items[0]).toBe(0);
      await server.waitForRequests(2);
      break;
    }
    const prefetch = server.requests[1];
    await Promise.race([prefetch?.done, sleep(1000)]);
    expect(prefetch?.closedEarly).toBe(true);
    expect(server.inFlight()).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it("a prefetch that fails after the consumer left causes no unhandled rejection", async () => {
    server.setHandler(
      pagesOf(10, { 1: { status: 400, body: { error: "bad cursor" }, delayMs: 20 } }),
    );
    let pages = 0;
    for await (const _page of paginate(fetchPageFrom(server.url), (p) => p.cursor)) {
      pages++;
      break;
    }
    await sleep(60);
    expect(pages).toBe(1);
  });

  it("surfaces a failing page to the consumer in order", async () => {
    server.setHandler(pagesOf(10, { 2: { status: 404, body: { error: "cursor expired" } } }));
    const got: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const page of paginate(fetchPageFrom(server.url), (p) => p.cursor)) {
          got.push(page.items[0] ?? -1);
        }
      })(),
    );
    expect(got).toEqual([0, 3]);
    expect((error as Error).message).toContain("cursor expired");
  });

  it("stops with an error when the server repeats a cursor", async () => {
    server.setHandler(() => ({ status: 200, body: { items: [1], cursor: "same" } }));
    const pages: Page[] = [];
    const error = await rejection(
      (async () => {
        for await (const page of paginate(fetchPageFrom(server.url), (p) => p.cursor)) {
          pages.push(page);
        }
      })(),
    );
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as Error).message).toContain("cursor did not advance");
    expect(pages).toHaveLength(1);
    expect(server.requests.map((r) => r.query.get("cursor"))).toEqual([null, "same"]);
  });

  it("the user's signal stops the iteration and aborts the request in flight", async () => {
    server.setHandler(pagesOf(10, { 1: { hang: true } }));
    const controller = new AbortController();
    const reason = new Error("user stop");
    const error = await rejection(
      (async () => {
        for await (const _page of paginate(fetchPageFrom(server.url), (p) => p.cursor, {
          signal: controller.signal,
        })) {
          await server.waitForRequests(2);
          controller.abort(reason);
        }
      })(),
    );
    expect(error).toBe(reason);
    await server.requests[1]?.done;
    expect(server.requests[1]?.closedEarly).toBe(true);
  });

  it("paginateItems stops the page iteration when the consumer breaks", async () => {
    server.setHandler(pagesOf(10));
    for await (const item of paginateItems(
      paginate(fetchPageFrom(server.url), (p) => p.cursor, { prefetch: false }),
      (page) => page.items,
    )) {
      if (item === 4) break;
    }
    expect(server.requests).toHaveLength(2);
  });
});
