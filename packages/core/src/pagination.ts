import { ApiClientError } from "./errors.js";

/** Options for {@link paginate}. */
export interface PaginateOptions {
  /**
   * Stops the iteration and aborts the request in flight.
   * @default undefined
   */
  signal?: AbortSignal;
  /**
   * Fetch the next page while the caller consumes the current one (never more than one page ahead).
   * @default true
   */
  prefetch?: boolean;
  /**
   * Cursor of the first page to fetch.
   * @default undefined (the first page)
   */
  startCursor?: string;
}

/**
 * Yields cursor-paginated pages until a page has no next cursor, fetching each cursor once and at most
 * one page ahead; leaving the loop early aborts the request in flight.
 *
 * @example
 * for await (const page of paginate((cursor, signal) => fetchLogs({ cursor }, { signal }), (page) => page.cursor)) {
 *   console.log(page.events.length);
 * }
 */
export async function* paginate<Page>(
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page>,
  nextCursor: (page: Page) => string | undefined,
  options: PaginateOptions = {},
): AsyncGenerator<Page, void, undefined> {
  const controller = new AbortController();
  const signal =
    options.signal === undefined
      ? controller.signal
      : AbortSignal.any([options.signal, controller.signal]);
  const prefetch = options.prefetch ?? true;
  const seen = new Set<string>();
  if (options.startCursor !== undefined) seen.add(options.startCursor);

  const start = (cursor: string | undefined): Promise<Page> => {
    signal.throwIfAborted();
    const promise = fetchPage(cursor, signal);
    // The consumer may stop before awaiting a prefetch: never leave its rejection unhandled.
    promise.catch(() => undefined);
    return promise;
  };

  try {
    let pending: Promise<Page> | undefined = start(options.startCursor);
    while (pending !== undefined) {
      const page: Page = await pending;
      pending = undefined;
      const cursor = nextCursor(page);
      const hasNext = cursor !== undefined && cursor !== "";
      if (hasNext) {
        if (seen.has(cursor)) {
          throw new ApiClientError(
            `Pagination stopped: cursor did not advance (the server returned cursor ${JSON.stringify(cursor)} again)`,
          );
        }
        seen.add(cursor);
        if (prefetch) pending = start(cursor);
      }
      yield page;
      if (hasNext && !prefetch) pending = start(cursor);
    }
  } finally {
    controller.abort();
  }
}

/**
 * Flattens pages into their items, in order; breaking out of the loop stops the page iteration too.
 *
 * @example
 * for await (const entry of paginateItems(pages, (page) => page.events)) console.log(entry.messageId);
 */
export async function* paginateItems<Page, Item>(
  pages: AsyncIterable<Page>,
  items: (page: Page) => readonly Item[],
): AsyncGenerator<Item, void, undefined> {
  for await (const page of pages) yield* items(page);
}
