// `api-clients logs summary --by state|url|topic|message`: counts over a window, read page by page
// through the client's one pipeline (`logs.pages()`: retries, rate limit, the same filters as
// `export`), shown as a bar chart per group and an hourly sparkline of failures. Memory is bounded by
// groups, not entries: at most MAX_GROUPS distinct groups are counted by name (the first ones seen),
// every later one in one "other" count; the failure histogram keeps at most MAX_BUCKETS buckets.
import type { ListLogsParams, LogEntry } from "@api-clients/logs-client";
import { UsageError, type Context } from "../context.js";
import { count, Progress } from "../output/progress.js";
import { safeJson } from "../output/safe.js";
import { oneLine } from "../output/table.js";
import { entryTime, localIso, stateColor } from "./entry-table.js";
import { defineCommand } from "../command.js";
import { logFilters, readFilters } from "./filters.js";
import { pinWindow } from "./window.js";

/** What `--by` groups by: the entry field of each choice. */
export const GROUP_FIELDS = {
  state: "state",
  url: "url",
  topic: "topicName",
  message: "messageId",
} as const;

export type GroupBy = keyof typeof GROUP_FIELDS;

/** Most distinct groups counted by name; entries of later groups are counted under "other". */
export const MAX_GROUPS = 1_000;

/** Most buckets of the failure histogram: past it, buckets double in length (1 h, 2 h, 4 h, …). */
export const MAX_BUCKETS = 2_048;

/** States that count as failures in the sparkline. */
const FAILURE_STATES = new Set(["ERROR", "FAILED"]);

const HOUR = 3_600_000;

/** The group of an entry with no value in the grouped field. */
export const NONE = "(none)";

/** `--by`, checked. */
export function groupBy(raw: string): GroupBy {
  if (Object.hasOwn(GROUP_FIELDS, raw)) return raw as GroupBy;
  throw new UsageError(
    `--by: expected one of ${Object.keys(GROUP_FIELDS).join(", ")}, got ${JSON.stringify(raw)}`,
  );
}

/** Failures per time bucket; the bucket length doubles whenever there would be too many buckets. */
class FailureHistogram {
  bucketMs = HOUR;
  readonly buckets = new Map<number, number>();
  total = 0;

  add(time: number): void {
    this.total += 1;
    const start = Math.floor(time / this.bucketMs) * this.bucketMs;
    this.buckets.set(start, (this.buckets.get(start) ?? 0) + 1);
    while (this.buckets.size > MAX_BUCKETS) this.coarsen();
  }

  private coarsen(): void {
    this.bucketMs *= 2;
    const merged = new Map<number, number>();
    for (const [start, n] of this.buckets) {
      const s = Math.floor(start / this.bucketMs) * this.bucketMs;
      merged.set(s, (merged.get(s) ?? 0) + n);
    }
    this.buckets.clear();
    for (const [s, n] of merged) this.buckets.set(s, n);
  }

  /** Every bucket from `from` to `to` (zeros included), `factor` buckets merged into one. */
  series(from: number, to: number, factor: number): { start: number; count: number }[] {
    const step = this.bucketMs * factor;
    const first = Math.floor(from / step) * step;
    const out: { start: number; count: number }[] = [];
    for (let s = first; s <= to; s += step) out.push({ start: s, count: 0 });
    for (const [start, n] of this.buckets) {
      const i = Math.floor((start - first) / step);
      const bucket = out[i];
      if (bucket !== undefined) bucket.count += n;
    }
    return out;
  }
}

const SPARKS = "▁▂▃▄▅▆▇█";

/** A sparkline: `▁` for none, then seven levels up to the highest count (any failure shows). */
export function sparkline(counts: readonly number[]): string {
  const max = Math.max(0, ...counts);
  return counts
    .map((n) => (n <= 0 ? SPARKS[0] : SPARKS[Math.max(1, Math.ceil((n / max) * 7))]))
    .join("");
}

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

/** A bar `width` cells long at most, in eighths of a cell; any count above zero shows. */
export function bar(n: number, max: number, width: number): string {
  if (n <= 0 || max <= 0) return "";
  const eighths = Math.max(1, Math.round((n / max) * width * 8));
  return "█".repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] as string);
}

/** Options of `logs summary` besides the filters. */
export interface SummaryOptions {
  by: GroupBy;
  json: boolean;
}

/** Reads the whole window and prints the counts. `params` is the fixed window (see `pinWindow`). */
export async function summarizeLogs(
  ctx: Context,
  params: ListLogsParams,
  options: SummaryOptions,
): Promise<void> {
  const name = GROUP_FIELDS[options.by];
  const groups = new Map<string, number>();
  let other = 0;
  let total = 0;
  // Entries the server returned outside the window asked for (or with no time to place them in it):
  // not counted, but said.
  let outside = 0;
  const lower = typeof params.fromDate === "number" ? params.fromDate : -Infinity;
  const upper = typeof params.toDate === "number" ? params.toDate : Infinity;
  const windowed = lower > -Infinity || upper < Infinity;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const failures = new FailureHistogram();
  const progress =
    ctx.io.stderr.isTTY === true ? new Progress(ctx.io.stderr, "counted") : undefined;
  const counts = { entries: 0, pages: 0 };

  for await (const page of ctx.logs().pages(params, { signal: ctx.signal })) {
    for (const entry of page.events) {
      const time = entryTime(entry as LogEntry);
      if (windowed && !(time >= lower && time <= upper)) {
        outside += 1;
        continue;
      }
      total += 1;
      const value = (entry as Record<string, unknown>)[name];
      const key = value === undefined || value === null || value === "" ? NONE : String(value);
      const known = groups.get(key);
      if (known !== undefined) groups.set(key, known + 1);
      else if (groups.size < MAX_GROUPS) groups.set(key, 1);
      else other += 1;
      if (Number.isFinite(time)) {
        first = Math.min(first, time);
        last = Math.max(last, time);
        const state = (entry as Record<string, unknown>)["state"];
        if (typeof state === "string" && FAILURE_STATES.has(state.toUpperCase()))
          failures.add(time);
      }
    }
    counts.entries = total + outside;
    counts.pages += 1;
    progress?.update(counts);
  }
  progress?.finish(counts);

  const from = typeof params.fromDate === "number" ? params.fromDate : first;
  const to = typeof params.toDate === "number" ? params.toDate : last;
  const sorted = [...groups].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const window = Number.isFinite(from) && Number.isFinite(to) && to >= from;

  // The sparkline: at most a week of hourly buckets, or as many as the terminal shows; more are merged.
  const room = Math.max(24, (ctx.terminalWidth ?? 24 * 7 + 2) - 2);
  const buckets = window
    ? Math.floor(to / failures.bucketMs) - Math.floor(from / failures.bucketMs) + 1
    : 0;
  const factor = Math.max(1, Math.ceil(buckets / room));
  const series = window ? failures.series(from, to, factor) : [];
  const bucketMs = failures.bucketMs * factor;

  if (options.json) {
    ctx.out(
      safeJson(
        {
          by: options.by,
          fromDate: window ? from : null,
          toDate: window ? to : null,
          total,
          outside,
          groups: sorted.map(([key, n]) => ({ key, count: n })),
          other: { count: other, maxGroups: MAX_GROUPS },
          failures: {
            states: [...FAILURE_STATES],
            total: failures.total,
            bucketMs,
            buckets: series,
          },
        },
        2,
      ) + "\n",
    );
    return;
  }

  const { colors } = ctx;
  const span = window ? ` from ${localIso(from)} to ${localIso(to)}` : "";
  ctx.out(colors.bold(`${count(total)} entries${span}, by ${options.by}`) + "\n");
  if (outside > 0)
    ctx.out(
      colors.yellow(
        `${count(outside)} more the server returned fell outside this window and are not counted`,
      ) + "\n",
    );
  if (total === 0) return;
  const rows = sorted.map(([key, n]) => ({ key: oneLine(key), n }));
  if (other > 0)
    rows.push({ key: `(other: groups after the first ${count(MAX_GROUPS)})`, n: other });
  const keyWidth = Math.max(...rows.map((r) => [...r.key].length));
  const numWidth = Math.max(...rows.map((r) => count(r.n).length));
  const max = Math.max(...rows.map((r) => r.n));
  const barWidth = Math.max(10, Math.min(50, (ctx.terminalWidth ?? 80) - keyWidth - numWidth - 14));
  let out = "";
  for (const { key, n } of rows) {
    const pct = `${((n * 100) / total).toFixed(1)}%`.padStart(6);
    const label = key + " ".repeat(keyWidth - [...key].length);
    const paint = options.by === "state" ? stateColor(colors, key) : colors.cyan;
    out += `${label}  ${count(n).padStart(numWidth)}  ${pct}  ${paint(bar(n, max, barWidth))}\n`;
  }
  ctx.out(out);
  if (series.length > 0) {
    const per = bucketMs === HOUR ? "hour" : `${bucketMs / HOUR} h`;
    const peak = Math.max(...series.map((b) => b.count));
    ctx.out(
      `\nFailures (ERROR, FAILED) per ${per}: ${count(failures.total)} in all, at most ${count(peak)} per ${per}\n` +
        colors.red(sparkline(series.map((b) => b.count))) +
        "\n" +
        colors.dim(`${localIso(series[0]!.start)} … ${localIso(to)}`) +
        "\n",
    );
  }
}

const { filters, flags } = logFilters(
  ["cursor", "order"],
  [
    {
      flags: "--by <field>",
      description: "state, url, topic or message",
      default: "state",
      values: Object.keys(GROUP_FIELDS),
    },
    { flags: "--json", description: "print the counts as JSON" },
  ],
);

/** `api-clients logs summary`. */
export const summaryCommand = defineCommand({
  path: ["logs", "summary"],
  summary:
    "counts over a window by state, url, topic or message: a bar chart per group and failures per hour",
  help: `\nIt reads every entry of the window (fixed at the start: without --to it ends then) and counts\nthe first ${MAX_GROUPS.toLocaleString("en-US")} distinct groups by name, every later one under "other".`,
  flags,
  read: (_args, opts, env) => ({
    by: groupBy(opts["by"] as string),
    params: pinWindow(readFilters(opts, filters, env.now, env.warn) as ListLogsParams, env.now),
    json: opts["json"] === true,
  }),
  run: (ctx, input) => summarizeLogs(ctx, input.params, { by: input.by, json: input.json }),
});
