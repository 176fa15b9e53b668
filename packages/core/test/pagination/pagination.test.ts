import { describe, expect, it } from "vitest";
import { AbortError, ApiClientError, ValidationError } from "../../src/index.js";
import {
  DEFAULT_MAX_EMPTY_PAGES,
  paginate,
  paginateItems,
  type PageReader,
} from "../../src/internal.js";
import { useTestServer, type Responder } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

interface Page {
  items: number[];
  cursor?: string;
}

const server = useTestServer();

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

const reader: PageReader<Page> = {
  next: (page) => page.cursor,
  count: (page) => page.items.length,
};

function fetchPageFrom(url: string) {
  const api = testApi(url, { maxRetries: 0 });
  return (cursor: string | undefined, signal: AbortSignal): Promise<Page> =>
    api.request<Page>("getThing", { query: cursor === undefined ? {} : { cursor } }, { signal });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collect<T>(pages: AsyncIterable<T>): Promise<{ got: T[]; error: unknown }> {
  const got: T[] = [];
  try {
    for await (const page of pages) got.push(page);
  } catch (error) {
    return { got, error };
  }
  return { got, error: undefined };
}

describe("paginate", () => {
  it("yields every page once and in order, requesting each cursor once", async () => {
    server.setHandler(pagesOf(25));
    const seen: number[] = [];
    for await (const item of paginateItems(
      paginate(fetchPageFrom(server.url), reader),
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
    for await (const page of paginate(fetchPageFrom(server.url), reader)) {
      expect(server.requests.length).toBeLessThanOrEqual(index + 2);
      // The prefetch of the next page reaches the server however busy the machine; then 80 ms in
      // which a second prefetch (there must be none) would show.
      await server.waitForRequests(Math.min(index + 2, 5));
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
    for await (const _page of paginate(fetchPageFrom(server.url), reader, { prefetch: false })) {
      await sleep(30);
      counts.push(server.requests.length);
    }
    expect(counts).toEqual([1, 2, 3]);
  });

  it("starts from startCursor", async () => {
    server.setHandler(pagesOf(4));
    const firsts: number[] = [];
    for await (const page of paginate(fetchPageFrom(server.url), reader, { startCursor: "2" })) {
      firsts.push(page.items[0] ?? -1);
    }
    expect(firsts).toEqual([6, 9]);
  });

  it("breaking out aborts the prefetch in flight", async () => {
    server.setHandler(pagesOf(10, { 1: { hang: true } }));
    for await (const page of paginate(fetchPageFrom(server.url), reader)) {
      expect(page.items[0]).toBe(0);
      await server.waitForRequests(2);
      break;
    }
    const prefetch = server.requests[1];
    await Promise.race([prefetch?.done, sleep(10_000)]);
    expect(prefetch?.closedEarly).toBe(true);
    expect(server.inFlight()).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it("a prefetch that fails after the consumer left causes no unhandled rejection", async () => {
    server.setHandler(
      pagesOf(10, { 1: { status: 400, body: { error: "bad cursor" }, delayMs: 20 } }),
    );
    let pages = 0;
    for await (const _page of paginate(fetchPageFrom(server.url), reader)) {
      pages++;
      break;
    }
    await sleep(60);
    expect(pages).toBe(1);
  });

  it("surfaces a failing page to the consumer in order", async () => {
    server.setHandler(pagesOf(10, { 2: { status: 404, body: { error: "cursor expired" } } }));
    const { got, error } = await collect(paginate(fetchPageFrom(server.url), reader));
    expect(got.map((page) => page.items[0])).toEqual([0, 3]);
    expect((error as Error).message).toContain("cursor expired");
  });

  it("stops with an error when the server repeats a cursor", async () => {
    server.setHandler(() => ({ status: 200, body: { items: [1], cursor: "same" } }));
    const { got, error } = await collect(paginate(fetchPageFrom(server.url), reader));
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as Error).message).toBe(
      'Pagination stopped: cursor did not advance (the server returned cursor "same" again)',
    );
    expect(got).toHaveLength(1);
    expect(server.requests.map((r) => r.query.get("cursor"))).toEqual([null, "same"]);
  });

  it("stops after maxEmptyPages empty pages in a row that still carry a cursor", async () => {
    server.setHandler((request) => {
      const n = Number(request.query.get("cursor") ?? "0");
      return { status: 200, body: { items: n === 0 ? [1] : [], cursor: String(n + 1) } };
    });
    const { got, error } = await collect(
      paginate(fetchPageFrom(server.url), reader, { maxEmptyPages: 5, prefetch: false }),
    );
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as Error).message).toBe(
      'Pagination stopped: 5 empty pages in a row, each with a new cursor (maxEmptyPages is 5); resume from cursor "6"',
    );
    expect(got).toHaveLength(5);
    expect(server.requests).toHaveLength(6);
  });

  it("empty pages between full ones do not count towards the limit", async () => {
    server.setHandler((request) => {
      const n = Number(request.query.get("cursor") ?? "0");
      const body: Page = { items: n % 3 === 2 ? [n] : [] };
      if (n < 30) body.cursor = String(n + 1);
      return { status: 200, body };
    });
    const { got, error } = await collect(
      paginate(fetchPageFrom(server.url), reader, { maxEmptyPages: 3 }),
    );
    expect(error).toBeUndefined();
    expect(got).toHaveLength(31);
  });

  it("the default limit is 100 empty pages", async () => {
    expect(DEFAULT_MAX_EMPTY_PAGES).toBe(100);
    server.setHandler((request) => {
      const n = Number(request.query.get("cursor") ?? "0");
      return { status: 200, body: { items: [], cursor: String(n + 1) } };
    });
    const { error } = await collect(paginate(fetchPageFrom(server.url), reader));
    expect((error as Error).message).toContain("100 empty pages in a row");
    expect(server.requests.length).toBeGreaterThanOrEqual(100);
    expect(server.requests.length).toBeLessThanOrEqual(101);
  });

  it("catches a cursor repeated within the last 10,000, and remembers no more than that", async () => {
    /** Cursors run 1, 2, …, period − 1, 0, 1, …: every cursor comes back after `period` pages. */
    const cycle =
      (period: number) =>
      async (cursor: string | undefined): Promise<Page> => {
        const n = Number(cursor ?? "0");
        return { items: [n], cursor: String((n + 1) % period) };
      };
    const caught = await collect(paginate(cycle(10_000), reader, { prefetch: false }));
    expect((caught.error as Error).message).toContain("cursor did not advance");
    expect(caught.got).toHaveLength(10_000);

    // A cycle one longer than the memory is never recognised: the oldest cursor is gone by then.
    let pages = 0;
    for await (const _page of paginate(cycle(10_001), reader, { prefetch: false })) {
      if (++pages === 25_000) break;
    }
    expect(pages).toBe(25_000);
  });

  it("long cursors are remembered by a hash: a repeat is still caught, near-equal ones are not confused", async () => {
    // Issue #24, item 4: cursors are remembered in bounded bytes whatever their size (the memory bound
    // itself is measured in logs-client/test/limits/cursor-memory.test.ts).
    const long = (n: number) => `${"c".repeat(100_000)}${n}`;
    const cycle =
      (period: number) =>
      async (cursor: string | undefined): Promise<Page> => {
        const n = cursor === undefined ? 0 : Number(cursor.slice(100_000));
        return { items: [n], cursor: long((n + 1) % period) };
      };
    const caught = await collect(paginate(cycle(50), reader, { prefetch: false }));
    expect((caught.error as Error).message).toMatch(
      /^Pagination stopped: cursor did not advance \(the server returned cursor "c{199}… again\)$/,
    );
    expect(caught.got).toHaveLength(50);
    // Same length, one character apart (the last one): distinct cursors.
    const flip = async (cursor: string | undefined): Promise<Page> => {
      const n = cursor === undefined ? 0 : Number(cursor.slice(100_000));
      return n < 9 ? { items: [n], cursor: long(n + 1) } : { items: [n] };
    };
    expect((await collect(paginate(flip, reader))).got).toHaveLength(10);
  });

  it.each([Number.NaN, 0, -1, 2.5, "5"])(
    "maxEmptyPages %s is a ValidationError before any request",
    async (value) => {
      // Issue #24, item 13: `Number(process.env.UNSET)` (NaN) used to turn the guard off silently.
      server.setHandler(pagesOf(3));
      const { error } = await collect(
        paginate(fetchPageFrom(server.url), reader, { maxEmptyPages: value as number }),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toBe(
        "maxEmptyPages: must be an integer >= 1, or Infinity",
      );
      expect(server.requests).toHaveLength(0);
    },
  );

  it("maxEmptyPages: Infinity follows every empty page", async () => {
    server.setHandler((request) => {
      const n = Number(request.query.get("cursor") ?? "0");
      return { status: 200, body: n < 150 ? { items: [], cursor: String(n + 1) } : { items: [n] } };
    });
    const { got, error } = await collect(
      paginate(fetchPageFrom(server.url), reader, { maxEmptyPages: Infinity }),
    );
    expect(error).toBeUndefined();
    expect(got).toHaveLength(151);
  });

  it("the user's signal stops the iteration and aborts the request in flight", async () => {
    server.setHandler(pagesOf(10, { 1: { hang: true } }));
    const controller = new AbortController();
    const reason = new Error("user stop");
    const error = await rejection(
      (async () => {
        for await (const _page of paginate(fetchPageFrom(server.url), reader, {
          signal: controller.signal,
        })) {
          await server.waitForRequests(2);
          controller.abort(reason);
        }
      })(),
    );
    expect(error === reason || (error instanceof AbortError && error.cause === reason)).toBe(true);
    await server.requests[1]?.done;
    expect(server.requests[1]?.closedEarly).toBe(true);
  });

  it("paginateItems stops the page iteration when the consumer breaks", async () => {
    server.setHandler(pagesOf(10));
    for await (const item of paginateItems(
      paginate(fetchPageFrom(server.url), reader, { prefetch: false }),
      (page) => page.items,
    )) {
      if (item === 4) break;
    }
    expect(server.requests).toHaveLength(2);
  });
});
