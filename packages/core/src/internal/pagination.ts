import { ApiClientError, ValidationError } from "../errors.js";
import { hash64 } from "./rate-limit.js";
import { truncate } from "./redact.js";

/** Default for {@link PaginateOptions.maxEmptyPages}. */
export const DEFAULT_MAX_EMPTY_PAGES = 100;

/**
 * How many recent cursors are remembered to catch a server that sends one again. Each is kept as its
 * length and a 64-bit hash, so they take under 2 MiB whatever the cursors' size.
 */
const REMEMBERED_CURSORS = 10_000;

/** The key a cursor is remembered by: its length and a 64-bit hash of it. */
function cursorKey(cursor: string): string {
  return `${cursor.length}:${hash64(cursor)}`;
}

/** How {@link paginate} reads a page: its next cursor and how many items it holds. */
export interface PageReader<Page> {
  /** The cursor of the next page, or `undefined`/`""` on the last page. */
  next(page: Page): string | undefined;
  /** Number of items on the page (a page with none counts towards `maxEmptyPages`). */
  count(page: Page): number;
}

/** Options for {@link paginate}. */
export interface PaginateOptions {
  /**
   * Stops the iteration and aborts the request in flight.
   * @default undefined
   */
  signal?: AbortSignal | undefined;
  /**
   * Fetch the next page while the caller consumes the current one (never more than one page ahead).
   * @default true
   */
  prefetch?: boolean | undefined;
  /**
   * Cursor of the first page to fetch.
   * @default undefined (the first page)
   */
  startCursor?: string | undefined;
  /**
   * Consecutive empty pages that still carry a next cursor before paging stops with an error (a server
   * that never ends would otherwise be followed forever): an integer >= 1, or `Infinity` to follow
   * every page; anything else (`NaN` included) is a `ValidationError`.
   * @default 100
   */
  maxEmptyPages?: number | undefined;
}

/** Remembers the most recent cursors (by {@link cursorKey}), forgetting the oldest beyond a bound. */
class RecentCursors {
  private readonly set = new Set<string>();
  /** Remembers the cursor; `false` when it was remembered already. */
  add(cursor: string): boolean {
    const key = cursorKey(cursor);
    if (this.set.has(key)) return false;
    this.set.add(key);
    if (this.set.size > REMEMBERED_CURSORS) {
      this.set.delete(this.set.values().next().value as string);
    }
    return true;
  }
}

/**
 * Yields cursor-paginated pages until a page has no next cursor, fetching each cursor once and at most
 * one page ahead; leaving the loop early aborts the request in flight. Stops with an `ApiClientError`
 * when the server repeats a recent cursor or sends `maxEmptyPages` empty pages in a row.
 *
 * @example
 * for await (const page of paginate((cursor, signal) => fetchLogs({ cursor }, { signal }), reader)) {
 *   console.log(page.events.length);
 * }
 */
export async function* paginate<Page>(
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page>,
  reader: PageReader<Page>,
  options: PaginateOptions = {},
): AsyncGenerator<Page, void, undefined> {
  const controller = new AbortController();
  const signal =
    options.signal === undefined
      ? controller.signal
      : AbortSignal.any([options.signal, controller.signal]);
  const prefetch = options.prefetch ?? true;
  const maxEmptyPages = options.maxEmptyPages ?? DEFAULT_MAX_EMPTY_PAGES;
  if (!(Number.isInteger(maxEmptyPages) && maxEmptyPages >= 1) && maxEmptyPages !== Infinity) {
    throw new ValidationError("maxEmptyPages", "must be an integer >= 1, or Infinity");
  }
  const seen = new RecentCursors();
  if (options.startCursor !== undefined) seen.add(options.startCursor);
  let emptyInARow = 0;

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
      const cursor = reader.next(page);
      const hasNext = cursor !== undefined && cursor !== "";
      if (hasNext) {
        if (!seen.add(cursor)) {
          throw new ApiClientError(
            `Pagination stopped: cursor did not advance (the server returned cursor ${truncate(JSON.stringify(cursor), 200)} again)`,
          );
        }
        emptyInARow = reader.count(page) === 0 ? emptyInARow + 1 : 0;
        if (emptyInARow >= maxEmptyPages) {
          throw new ApiClientError(
            `Pagination stopped: ${emptyInARow} empty pages in a row, each with a new cursor (maxEmptyPages is ${maxEmptyPages}); resume from cursor ${JSON.stringify(cursor)}`,
          );
        }
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
