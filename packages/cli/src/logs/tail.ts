// `api-clients logs tail`: follows new entries until Ctrl-C. Each poll reads newest-first and follows
// cursors until it reaches entries it has already seen, so nothing that arrived between two polls is
// skipped, however many pages it fills; entries already shown are remembered (for a window behind the
// newest one) and never shown twice. What it holds is bounded in bytes: a poll's new entries and the
// keys of the entries remembered, whatever a server sends.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type { ListLogsParams, LogEntry } from "@api-clients/logs-client";
import type { Context } from "../context.js";
import { layoutTable, renderHeader, renderRow, type TableLayout } from "../output/table.js";
import { entryColumns, entryTime } from "./entry-table.js";
import { safeJson } from "../output/safe.js";
import { UsageError } from "../context.js";
import { defineCommand } from "../command.js";
import { readValue } from "../operations.js";
import { logFilters, readFilters, readLimit } from "./filters.js";

/** How far behind the newest entry seen a poll still checks for entries it has not shown (ms). */
export const LATE_WINDOW_MS = 10_000;

/**
 * Most entries, pages and bytes of new entries (as JSON) one poll reads before it prints what is new
 * and waits for the next poll: a server whose pages never end (or never reach what was shown) costs
 * bounded memory and a bounded number of requests per interval. More new entries than that between
 * two polls: the oldest of them are not shown (a warning says so).
 */
export const MAX_ENTRIES_PER_POLL = 10_000;
export const MAX_PAGES_PER_POLL = 1_000;
export const MAX_BYTES_PER_POLL = 8 * 1024 * 1024;

/**
 * Most bytes the keys of the entries remembered as shown take (beyond it, the oldest are forgotten
 * first): about 130,000 entries. A key longer than {@link MAX_KEY_LENGTH} is kept as its SHA-256.
 */
export const MAX_SEEN_BYTES = 16 * 1024 * 1024;
const MAX_KEY_LENGTH = 128;
/** What a remembered key costs besides its characters (the map's slot, the string's header, a time). */
const SEEN_OVERHEAD = 64;

/** Printed output is written in chunks of about this many characters. */
const CHUNK = 64 * 1024;

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

/** What identifies an entry: a message's state at a time (hashed when long: ids are server text). */
const keyOf = (entry: LogEntry): string => {
  const e = entry as Record<string, unknown>;
  const key = `${String(e["time"])}\u0000${String(e["messageId"])}\u0000${String(e["state"])}`;
  return key.length <= MAX_KEY_LENGTH ? key : createHash("sha256").update(key).digest("base64");
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
  let seenBytes = 0;
  const forget = (key: string) => {
    seen.delete(key);
    seenBytes -= key.length + SEEN_OVERHEAD;
  };
  let newest = Number.NEGATIVE_INFINITY;
  let layout: TableLayout<LogEntry> | undefined;
  let left = options.limit ?? Infinity;

  /** Prints; a reader slower than the server (a pipe) holds the next poll back, not memory. */
  const write = async (text: string) => {
    if (!ctx.out(text)) await once(ctx.io.stdout, "drain", { signal: ctx.signal });
  };
  const show = async (all: LogEntry[]) => {
    const entries = all.length > left ? all.slice(0, left) : all;
    left -= entries.length;
    if (!options.json && layout === undefined) {
      layout = layoutTable(entries, entryColumns(ctx.colors), ctx.terminalWidth);
      await write(renderHeader(layout, ctx.colors.bold) + "\n");
    }
    let chunk = "";
    for (const entry of entries) {
      chunk += (layout === undefined ? safeJson(entry) : renderRow(layout, entry)) + "\n";
      if (chunk.length >= CHUNK) {
        await write(chunk);
        chunk = "";
      }
    }
    if (chunk !== "") await write(chunk);
  };

  const warned = new Set<string>();
  const warnOnce = (key: string, line: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    ctx.err(ctx.errColors.yellow(line));
  };

  /**
   * Reads newest-first from the top until an entry older than the window, a cursor it already
   * followed in this poll, the end, or the poll's bounds (entries, pages, bytes); returns the unseen.
   */
  const poll = async (first: boolean): Promise<LogEntry[]> => {
    const boundary = newest - LATE_WINDOW_MS;
    const fresh: LogEntry[] = [];
    const followed = new Set<string>(); // digests: a cursor can be large
    let cursor: string | undefined;
    let read = 0;
    let bytes = 0;
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
        seenBytes += key.length + SEEN_OVERHEAD;
        fresh.push(entry);
        bytes += JSON.stringify(entry).length;
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
      if (
        read >= MAX_ENTRIES_PER_POLL ||
        pages >= MAX_PAGES_PER_POLL ||
        bytes >= MAX_BYTES_PER_POLL
      ) {
        const mib = (bytes / 1024 / 1024).toFixed(1);
        warnOnce(
          "pages",
          `api-clients: read ${read} entries (${pages} pages, ${mib} MiB new) in one poll without reaching the ones shown; older new entries may not be shown`,
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
    for (const [key, time] of seen) if (time < keep) forget(key);
    // Map keeps insertion order: the first keys are the oldest remembered.
    for (const key of seen.keys()) {
      if (seenBytes <= MAX_SEEN_BYTES) break;
      forget(key);
    }
    return fresh.reverse().sort(byTime); // oldest first, ties in arrival order
  };

  const initial = await poll(true);
  await show(options.lines > 0 ? initial.slice(-options.lines) : []);
  while (left > 0) {
    await sleep(options.intervalMs, undefined, { signal: ctx.signal });
    await show(await poll(false));
  }
}

/** `--interval` in milliseconds: positive, and at most what a timer can wait (else it fires at once). */
function interval(raw: string): number {
  const seconds = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--interval: expected a positive number, got ${JSON.stringify(raw)}`);
  if (seconds > MAX_INTERVAL_SECONDS)
    throw new UsageError(
      `--interval: at most ${MAX_INTERVAL_SECONDS} seconds (about 24.8 days), got ${JSON.stringify(raw)}`,
    );
  return seconds * 1000;
}

const { filters, flags } = logFilters(
  ["cursor", "order"],
  [
    { flags: "--json", description: "one JSON entry per line (NDJSON) instead of a table" },
    { flags: "--interval <seconds>", description: "time between polls, seconds", default: "2" },
    {
      flags: "-n, --lines <n>",
      description: "how many of the newest existing entries to show first",
      default: "10",
    },
    {
      flags: "--limit <n>",
      description: "exit after showing this many entries (the first --lines included)",
    },
  ],
);

/** `api-clients logs tail`. */
export const tailCommand = defineCommand({
  path: ["logs", "tail"],
  summary: "follow new entries as they arrive, until Ctrl-C",
  flags,
  read: (_args, opts, env) => ({
    params: readFilters(opts, filters, env.now, env.warn) as ListLogsParams,
    json: opts["json"] === true,
    intervalMs: interval(opts["interval"] as string),
    lines: readValue({ type: "integer", minimum: 0 }, opts["lines"] as string, "--lines") as number,
    limit: readLimit(opts),
  }),
  run: (ctx, { params, ...options }) => tailLogs(ctx, params, options),
});
