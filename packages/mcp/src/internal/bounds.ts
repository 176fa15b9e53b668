// Results that never overflow a context window: a result's text is at most `maxBytes` (UTF-8); a list
// returns the items that fit with a cursor to the rest; a page that does not fit even one item
// becomes a summary (counts by state and URL for log entries) with the cursor. JSON is never cut.

/** Default bound on a result's text, bytes. */
export const DEFAULT_MAX_RESULT_BYTES = 24_000;

/** Prefix of the cursors this server writes (a service cursor wrapped with a position in its page). */
const CURSOR_PREFIX = "mcp1.";

/** Where a listing resumes: the service's cursor of the page (none for the first) and how many of its items were returned. */
export interface Position {
  readonly service?: string;
  readonly offset: number;
}

/** A cursor as the model sees it. */
export function encodeCursor(position: Position): string {
  return CURSOR_PREFIX + Buffer.from(JSON.stringify(position)).toString("base64url");
}

/**
 * Reads a cursor given to a tool: one of ours, or (for a paged operation) the service's own cursor,
 * which starts at the beginning of its page. `undefined` when it is neither.
 */
export function decodeCursor(cursor: string): Position | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX)) return undefined;
  try {
    const value = JSON.parse(
      Buffer.from(cursor.slice(CURSOR_PREFIX.length), "base64url").toString(),
    );
    const offset = value?.offset;
    const service = value?.service;
    if (!Number.isSafeInteger(offset) || offset < 0) return undefined;
    if (service !== undefined && typeof service !== "string") return undefined;
    return service === undefined ? { offset } : { service, offset };
  } catch {
    return undefined;
  }
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** `item` with only the `fields` given (all when none). */
export function select(item: unknown, fields: readonly string[] | undefined): unknown {
  if (fields === undefined || fields.length === 0) return item;
  if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
  const out: Record<string, unknown> = {};
  for (const field of fields)
    if (field in item) out[field] = (item as Record<string, unknown>)[field];
  return out;
}

/** Counts of list items by state and URL (the fields of log entries), and by nothing else. */
export function summarize(items: readonly unknown[]): Record<string, unknown> {
  const byState: Record<string, number> = {};
  const byUrl: Record<string, number> = {};
  for (const item of items) {
    if (item === null || typeof item !== "object") continue;
    const { state, url } = item as { state?: unknown; url?: unknown };
    if (typeof state === "string") byState[state] = (byState[state] ?? 0) + 1;
    if (typeof url === "string") byUrl[url] = (byUrl[url] ?? 0) + 1;
  }
  const summary: Record<string, unknown> = { count: items.length };
  if (Object.keys(byState).length > 0) summary["byState"] = byState;
  if (Object.keys(byUrl).length > 0) summary["byUrl"] = byUrl;
  return summary;
}

/** One bounded result: its structured value and its text (the JSON of it, at most the bound). */
export interface Bounded {
  readonly value: Record<string, unknown>;
  readonly text: string;
}

/**
 * Fits the items of one page, from `offset`, into `maxBytes`: `wrap(items, next)` builds the result
 * for the items taken and the cursor to the rest (`undefined` at the end). When not even one item
 * fits, the result is the summary of the rest of the page, with the cursor past it.
 */
export function fitPage(
  items: readonly unknown[],
  at: Position,
  maxBytes: number,
  wrap: (items: readonly unknown[], next: Position | undefined, summary?: object) => object,
  nextPage: string | undefined,
): Bounded {
  const offset = Math.min(at.offset, items.length);
  const rest = items.slice(offset);
  const after = (taken: number): Position | undefined =>
    offset + taken < items.length
      ? { ...(at.service === undefined ? {} : { service: at.service }), offset: offset + taken }
      : nextPage === undefined
        ? undefined
        : { service: nextPage, offset: 0 };
  const render = (value: object): Bounded => ({
    value: value as Record<string, unknown>,
    text: JSON.stringify(value),
  });
  // The largest prefix that fits (binary search on its rendered size).
  let low = 0;
  let high = rest.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (bytes(JSON.stringify(wrap(rest.slice(0, mid), after(mid)))) <= maxBytes) low = mid;
    else high = mid - 1;
  }
  if (low > 0 || rest.length === 0) {
    const fitted = render(wrap(rest.slice(0, low), after(low)));
    if (bytes(fitted.text) <= maxBytes) return fitted;
  }
  const summarized = render(wrap([], after(rest.length), summarize(rest)));
  if (bytes(summarized.text) <= maxBytes) return summarized;
  return render({
    error: "result too large",
    note: `Not even a summary fits in ${maxBytes} bytes: raise --max-result-bytes or narrow the filters.`,
  });
}

/**
 * `value` with as many items of its list `key` as fit in `maxBytes` (a prefix), and `omitted` the
 * number left out; `undefined` when not even the value without items fits.
 */
export function fitList(
  value: Record<string, unknown>,
  key: string,
  maxBytes: number,
): Record<string, unknown> | undefined {
  const items = Array.isArray(value[key]) ? (value[key] as unknown[]) : [];
  const build = (n: number) => ({
    ...value,
    [key]: items.slice(0, n),
    ...(n < items.length ? { omitted: items.length - n } : {}),
  });
  const fits = (n: number) => bytes(JSON.stringify(build(n))) <= maxBytes;
  if (!fits(0)) return undefined;
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return build(low);
}
