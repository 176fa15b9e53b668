// `api-clients logs tail`: follows new entries until Ctrl-C. Each poll reads newest-first and follows
// cursors until it reaches entries it has already seen, so nothing that arrived between two polls is
// skipped, however many pages it fills; entries already shown are remembered (for a window behind the
// newest one) and never shown twice.
import { setTimeout as sleep } from "node:timers/promises";
import type { ListLogsParams, LogEntry } from "@api-clients/logs-client";
import type { Context } from "../context.js";
import { layoutTable, renderHeader, renderRow, type TableLayout } from "../output/table.js";
import { entryColumns, entryTime } from "./entry-table.js";

/** How far behind the newest entry seen a poll still checks for entries it has not shown (ms). */
export const LATE_WINDOW_MS = 10_000;

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
      for (const entry of entries) chunk += JSON.stringify(entry) + "\n";
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

  /** Reads newest-first from the top until an entry older than the window; returns the unseen ones. */
  const poll = async (first: boolean): Promise<LogEntry[]> => {
    const boundary = newest - LATE_WINDOW_MS;
    const fresh: LogEntry[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await logs.list(cursor === undefined ? params : { ...params, cursor }, {
        signal: ctx.signal,
      });
      let reachedSeen = false;
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
      cursor = page.cursor;
    }
    for (const entry of fresh) newest = Math.max(newest, entryTime(entry) || newest);
    const keep = newest - LATE_WINDOW_MS;
    for (const [key, time] of seen) if (time < keep) seen.delete(key);
    return fresh.reverse().sort(byTime); // oldest first, ties in arrival order
  };

  const initial = await poll(true);
  show(options.lines > 0 ? initial.slice(-options.lines) : []);
  while (left > 0) {
    await sleep(options.intervalMs, undefined, { signal: ctx.signal });
    show(await poll(false));
  }
}
