// `api-clients logs tail`: follows new entries until Ctrl-C. Each poll reads newest-first and follows
// cursors until it reaches entries it has already seen, so nothing that arrived between two polls is
// skipped, however many pages it fills; entries already shown are remembered (for a window behind the
// newest one) and never shown twice.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { ListLogsParams, LogEntry } from "@api-clients/logs-client";
import type { Context } from "../context.js";
import { layoutTable, renderHeader, renderRow, type TableLayout } from "../output/table.js";
import { entryColumns, entryTime } from "./entry-table.js";
import { safeJson } from "../output/safe.js";

/** How far behind the newest entry seen a poll still checks for entries it has not shown (ms). */
export const LATE_WINDOW_MS = 10_000;

/**
 * Most entries (and pages) one poll reads before it prints what is new and waits for the next poll: a
 * server whose pages never end (or never reach what was shown) costs bounded memory and a bounded
 * number of requests per interval. More new entries than that between two polls: the oldest of them
 * are not shown (a warning says so).
 */
export const MAX_ENTRIES_PER_POLL = 10_000;
export const MAX_PAGES_PER_POLL = 1_000;

/** Most entries remembered as shown (beyond it, the oldest are forgotten first). */
export const MAX_SEEN = 100_000;

/** Longest `--interval` a timer can wait (2^31 - 1 ms, about 24.8 days), in seconds. */
export const MAX_INTERVAL_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** Options of `logs tail` besides the filters. */
export interface TailOptions {
  json: boolean;
  /** Seconds between polls. */
  intervalMs: number;
  /** How many of the newest existing entries to show first. */
  lines: number;
  /** Stop (exit 0) after showing this many entries, the first `lines` included. */
  limit?: number | undefined;
}

/** What identifies an entry: a message's state at a time. */
const keyOf = (entry: LogEntry): string => {
  const e = entry as Record<string, unknown>;
  return `${String(e["time"])}\u0000${String(e["messageId"])}\u0000${String(e["state"])}`;
};

const byTime = (a: LogEntry, b: LogEntry): number => entryTime(a) - entryTime(b);

/** Runs until interrupted (the caller turns the abort into exit code 130), or until `limit` entries. */
export async function tailLogs(
  ctx: Context,
  params: ListLogsParams,
  options: TailOptions,
): Promise<void> {
  const logs = ctx.logs();
  const seen = new Map<string, number>(); // key → time
  let newest = Number.NEGATIVE_INFINITY;
  let layout: TableLayout<LogEntry> | undefined;
  let left = options.limit ?? Infinity;

  const show = (all: LogEntry[]) => {
    const entries = all.length > left ? all.slice(0, left) : all;
    left -= entries.length;
    if (options.json) {
      let chunk = "";
      for (const entry of entries) chunk += safeJson(entry) + "\n";
      if (chunk !== "") ctx.out(chunk);
      return;
    }
    if (layout === undefined) {
      layout = layoutTable(entries, entryColumns(ctx.colors), ctx.terminalWidth);
      ctx.out(renderHeader(layout, ctx.colors.bold) + "\n");
    }
    let chunk = "";
    for (const entry of entries) chunk += renderRow(layout, entry) + "\n";
    if (chunk !== "") ctx.out(chunk);
  };

  const warned = new Set<string>();
  const warnOnce = (key: string, line: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    ctx.err(ctx.errColors.yellow(line));
  };

  /**
   * Reads newest-first from the top until an entry older than the window, a cursor it already
   * followed in this poll, the end, or {@link MAX_ENTRIES_PER_POLL} unseen entries; returns them.
   */
  const poll = async (first: boolean): Promise<LogEntry[]> => {
    const boundary = newest - LATE_WINDOW_MS;
    const fresh: LogEntry[] = [];
    const followed = new Set<string>(); // digests: a cursor can be large
    let cursor: string | undefined;
    let read = 0;
    for (let pages = 1; ; pages++) {
      const page = await logs.list(cursor === undefined ? params : { ...params, cursor }, {
        signal: ctx.signal,
      });
      let reachedSeen = false;
      read += page.events.length;
      for (const entry of page.events) {
        const time = entryTime(entry);
        if (time < boundary) {
          reachedSeen = true;
          break;
        }
        const key = keyOf(entry);
        if (seen.has(key)) continue;
        seen.set(key, time);
        fresh.push(entry);
      }
      // The first read only takes the newest page: what is older was there before tail started.
      if (first || reachedSeen || page.cursor === undefined) break;
      const digest = createHash("sha256").update(page.cursor).digest("base64");
      if (followed.has(digest)) {
        warnOnce(
          "cursor",
          "api-clients: the server returned a cursor it returned before; waiting for the next poll",
        );
        break;
      }
      if (read >= MAX_ENTRIES_PER_POLL || pages >= MAX_PAGES_PER_POLL) {
        warnOnce(
          "pages",
          `api-clients: read ${read} entries (${pages} pages) in one poll without reaching the ones shown; older new entries may not be shown`,
        );
        break;
      }
      followed.add(digest);
      cursor = page.cursor;
    }
    // An entry dated after this machine's clock does not move the window: the entries after it
    // (dated now) must still be read.
    const now = Date.now();
    for (const entry of fresh) {
      const time = entryTime(entry);
      if (Number.isFinite(time)) newest = Math.max(newest, Math.min(time, now));
    }
    const keep = newest - LATE_WINDOW_MS;
    for (const [key, time] of seen) if (time < keep) seen.delete(key);
    // Map keeps insertion order: the first keys are the oldest remembered.
    for (const key of seen.keys()) {
      if (seen.size <= MAX_SEEN) break;
      seen.delete(key);
    }
    return fresh.reverse().sort(byTime); // oldest first, ties in arrival order
  };

  const initial = await poll(true);
  show(options.lines > 0 ? initial.slice(-options.lines) : []);
  while (left > 0) {
    await sleep(options.intervalMs, undefined, { signal: ctx.signal });
    show(await poll(false));
  }
}
