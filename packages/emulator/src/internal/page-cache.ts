// Serialized log pages, kept for repeated reads of the same listing: a poller asking for the newest
// entries again and again, a test reading the same page twice. Serializing entries is what a log read
// costs (a profile of `GET /v2/logs?count=100` spends most of its time building and encoding the JSON;
// finding the page is negligible), so a repeated read sends the bytes it built before.
//
// Exactness: stored entries are immutable, and the store only grows (entries are inserted, never
// removed) until it is cleared, which replaces its entry array. So the entry array's identity and its
// length, together with the validated query, determine a page's bytes; any append or reset empties
// the cache before the next read.
import type { StoredEntry } from "./log-entry.js";
import type { LogsStore } from "./logs-store.js";

/** At most this many pages are kept… */
const MAX_PAGES = 64;
/** …and at most this many bytes in all. */
const MAX_BYTES = 4 * 1024 * 1024;
/**
 * Longer pages (a page of 1,000 entries is about 0.5 MB) are sent as built and not kept: paging
 * through a large log reads each page once, and keeping (and encoding up front) half-megabyte pages
 * made that path slower in the bench, not faster.
 */
const MAX_PAGE_CHARS = 64 * 1024;

class PageCache {
  private entries: readonly StoredEntry[] | undefined;
  private size = -1;
  private bytes = 0;
  /** Pages by query key, least recently used first. */
  private readonly pages = new Map<string, Uint8Array>();

  page(store: LogsStore, key: string, build: () => string): Uint8Array | string {
    const entries = store.all();
    if (entries !== this.entries || entries.length !== this.size) {
      this.pages.clear();
      this.bytes = 0;
      this.entries = entries;
      this.size = entries.length;
    }
    const cached = this.pages.get(key);
    if (cached !== undefined) {
      this.pages.delete(key);
      this.pages.set(key, cached);
      return cached;
    }
    const text = build();
    if (text.length > MAX_PAGE_CHARS) return text;
    const page = new TextEncoder().encode(text);
    this.pages.set(key, page);
    this.bytes += page.length;
    for (const [oldest, bytes] of this.pages) {
      if (this.pages.size <= MAX_PAGES && this.bytes <= MAX_BYTES) break;
      this.pages.delete(oldest);
      this.bytes -= bytes.length;
    }
    return page;
  }
}

const caches = new WeakMap<LogsStore, PageCache>();

/**
 * Wraps a listing handler that serializes a page of `ctx.logs` from a validated query, so that the
 * same query on an unchanged store answers the bytes built the first time (pages up to 64 K
 * characters; longer ones are returned as built). A handler that throws (a bad cursor) caches nothing.
 */
export function cachedListing<Ctx extends { readonly logs: LogsStore }, Field extends string>(
  handler: (ctx: Ctx, query: Record<string, unknown>, field: Field) => string,
): (ctx: Ctx, query: Record<string, unknown>, field: Field) => Uint8Array | string {
  return (ctx, query, field) => {
    let cache = caches.get(ctx.logs);
    if (cache === undefined) caches.set(ctx.logs, (cache = new PageCache()));
    return cache.page(ctx.logs, `${field} ${JSON.stringify(query)}`, () =>
      handler(ctx, query, field),
    );
  };
}
