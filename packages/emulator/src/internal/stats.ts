// Plausible usage statistics: series of `{ x, y }` points, stable for a resource (seeded by its id) and
// anchored at the current hour, in the shapes the service sends for databases, vector and search
// indexes, and QStash users.
import { prng } from "./prng.js";

/** One point of a series: `x` is the service's Go-style time text, `y` the value. */
export interface Point {
  x: string;
  y: number;
}

type Rng = () => number;

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** A generator seeded by a text (FNV-1a): the same id gives the same numbers. */
export function seeded(text: string): Rng {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return prng(h);
}

/** Time text as the service writes it: `2025-10-01 11:33:05.585 +0000 UTC` (not ISO 8601). */
export const timeText = (ms: number): string =>
  new Date(ms).toISOString().replace("T", " ").replace("Z", " +0000 UTC");

const weekday = (ms: number): string =>
  new Date(ms).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * The points of a `period` (`1h`, `3h`, `12h`, `1d`, `3d`, `7d`, `30d`): 60 spread evenly over it,
 * except `30d`, 240 points 3 hours apart. Any other value reads as `1h`.
 */
export function periodSteps(period: unknown): { points: number; stepMs: number } {
  const spans: Record<string, number> = {
    "1h": HOUR,
    "3h": 3 * HOUR,
    "12h": 12 * HOUR,
    "1d": DAY,
    "3d": 3 * DAY,
    "7d": 7 * DAY,
  };
  if (period === "30d") return { points: 240, stepMs: 3 * HOUR };
  const span = (typeof period === "string" ? spans[period] : undefined) ?? HOUR;
  return { points: 60, stepMs: span / 60 };
}

/** The start of the minute of `ms`. */
const minute = (ms: number): number => Math.floor(ms / 60_000) * 60_000;

/** A series generator bound to a clock anchor and a generator. */
export function seriesMaker(rng: Rng, endMs: number) {
  /** `points` values around `base` (± spread / 2), never negative, `stepMs` apart, ending at `endMs`. */
  const series = (
    base: number,
    spread: number,
    points: number,
    stepMs: number,
    whole = false,
  ): Point[] =>
    Array.from({ length: points }, (_, i) => {
      const y = Math.max(0, base + (rng() - 0.5) * spread);
      return {
        x: timeText(endMs - (points - 1 - i) * stepMs),
        y: whole ? Math.round(y) : round2(y),
      };
    });
  /** A series rising to `last` (counts that grow: vectors stored, data size). */
  const rising = (last: number, points: number, stepMs: number): Point[] =>
    Array.from({ length: points }, (_, i) => ({
      x: timeText(endMs - (points - 1 - i) * stepMs),
      y: Math.round(last * (1 - ((points - 1 - i) / points) * 0.05 * rng())),
    }));
  return { series, rising, endMs };
}

/** Weekday names of the last `n` days, oldest first, ending today. */
export function lastDays(n: number, endMs: number): string[] {
  return Array.from({ length: n }, (_, i) => weekday(endMs - (n - 1 - i) * DAY));
}

// --- key-value databases ---------------------------------------------------------------------------

/** `DatabaseStats` of a database: hourly series over a day, daily ones over a week, this month's totals. */
export function databaseStats(id: string, nowMs: number): Record<string, unknown> {
  const rng = seeded(id);
  const { series } = seriesMaker(rng, Math.floor(nowMs / HOUR) * HOUR);
  const hourly = (base: number, spread: number, whole = false): Point[] =>
    series(base, spread, 24, HOUR, whole);
  const daily = series(40_000, 30_000, 7, DAY, true);
  const keys = 1000 + Math.floor(rng() * 100_000);
  const monthly = daily.reduce((s, p) => s + p.y, 0) * 4;
  const today = daily[daily.length - 1]?.y ?? 0;
  const reads = Math.round(today * 0.7);
  const bandwidths = series(keys * 400, keys * 200, 7, DAY, true);
  return {
    throughput: hourly(120, 80),
    latencymean: hourly(0.4, 0.3),
    latency_99: hourly(2.5, 1.5),
    read_latency_mean: hourly(0.35, 0.2),
    read_latency_99: hourly(2, 1),
    write_latency_mean: hourly(0.5, 0.3),
    write_latency_99: hourly(3, 2),
    keyspace: hourly(keys, keys * 0.05, true),
    connection_count: hourly(12, 10, true),
    monitor_count: { x: timeText(nowMs), y: 0 },
    hits: hourly(90, 60),
    misses: hourly(10, 8),
    read: hourly(80, 50),
    write: hourly(40, 30),
    dailyrequests: daily,
    dailybilling: daily.map((p) => ({ x: p.x, y: round2(p.y * 0.000002) })),
    bandwidths,
    diskusage: hourly(keys * 180, keys * 10, true),
    daily_net_commands: today,
    daily_read_requests: reads,
    daily_write_requests: today - reads,
    dailybandwidth: bandwidths[bandwidths.length - 1]?.y ?? 0,
    total_monthly_requests: monthly,
    total_monthly_read_requests: Math.round(monthly * 0.7),
    total_monthly_write_requests: monthly - Math.round(monthly * 0.7),
    total_monthly_script_requests: Math.round(monthly * 0.01),
    total_monthly_bandwidth: bandwidths.reduce((s, p) => s + p.y, 0) * 4,
    total_monthly_storage: keys * 180,
    total_monthly_billing: round2(monthly * 0.000002),
    current_storage: keys * 180,
    queue_optimized: false,
    command_counts: ["GET", "SET", "EXISTS", "DEL"].map((metric_identifier, i) => ({
      metric_identifier,
      data_points: hourly(60 / (i + 1), 30 / (i + 1), true),
    })),
    days: lastDays(7, nowMs),
  };
}

// --- vector and search indexes ---------------------------------------------------------------------

/** This month's totals of an index, the same in its stats and in the account's global stats. */
export interface IndexTotals {
  vectors: number;
  bytes: number;
  monthlyQueries: number;
  monthlyUpdates: number;
  monthlyReranks: number;
  monthlyBandwidth: number;
  monthlyCost: number;
}

/** The totals of an index (seeded by its id); `dimensions` sizes its stored data. */
export function indexTotals(id: string, dimensions = 384): IndexTotals {
  const rng = seeded(`totals:${id}`);
  const vectors = 1_000 + Math.floor(rng() * 500_000);
  const monthlyQueries = 10_000 + Math.floor(rng() * 2_000_000);
  const monthlyUpdates = Math.floor(monthlyQueries * (0.1 + rng() * 0.4));
  const monthlyReranks = Math.floor(monthlyQueries * rng() * 0.05);
  return {
    vectors,
    bytes: vectors * (Math.max(1, Math.round(dimensions)) * 4 + 64),
    monthlyQueries,
    monthlyUpdates,
    monthlyReranks,
    monthlyBandwidth: (monthlyQueries + monthlyUpdates) * 2_048,
    monthlyCost: round2((monthlyQueries + monthlyUpdates) * 0.000004),
  };
}

/** `GlobalStats`: totals over the account's indexes of one kind. */
export function globalStats(totals: readonly IndexTotals[]): Record<string, number> {
  const sum = (f: (t: IndexTotals) => number): number => totals.reduce((s, t) => s + f(t), 0);
  return {
    record_count: sum((t) => t.vectors),
    request: sum((t) => t.monthlyQueries + t.monthlyUpdates),
    bandwidth: sum((t) => t.monthlyBandwidth),
    storage: sum((t) => t.bytes),
    billing: round2(sum((t) => t.monthlyCost)),
    rerank_count: sum((t) => t.monthlyReranks),
  };
}

/** `VectorStats` of a vector or search index over `period`, consistent with its totals. */
export function indexStats(
  id: string,
  period: unknown,
  nowMs: number,
  dimensions = 384,
): Record<string, unknown> {
  const t = indexTotals(id, dimensions);
  const rng = seeded(`stats:${id}`);
  const { points, stepMs } = periodSteps(period);
  const { series, rising } = seriesMaker(rng, minute(nowMs));
  const day = (monthly: number): Point[] =>
    series(monthly / 30, monthly / 60, 7, DAY, true).map((p, i, all) =>
      // Today is not over yet: its count is a part of a day's.
      i === all.length - 1 ? { ...p, y: Math.round(p.y * 0.4) } : p,
    );
  const perMinute = (monthly: number): number => monthly / (30 * 24 * 60);
  const queries = day(t.monthlyQueries);
  const updates = day(t.monthlyUpdates);
  const reranks = day(t.monthlyReranks);
  const last = (s: Point[]): number => s[s.length - 1]?.y ?? 0;
  return {
    pending_index_count: Math.floor(rng() * 20),
    current_vector_count: t.vectors,
    daily_query_count: last(queries),
    daily_update_count: last(updates),
    daily_rerank_count: last(reranks),
    monthly_query_count: t.monthlyQueries,
    monthly_update_count: t.monthlyUpdates,
    monthly_rerank_count: t.monthlyReranks,
    monthly_bandwidth_usage: t.monthlyBandwidth,
    storage_usage: t.bytes,
    monthly_cost: t.monthlyCost,
    days: lastDays(7, nowMs),
    daily_query_requests: queries,
    daily_update_requests: updates,
    daily_rerank_requests: reranks,
    daily_bandwidths: day(t.monthlyBandwidth),
    query_throughput: series(
      perMinute(t.monthlyQueries),
      perMinute(t.monthlyQueries),
      points,
      stepMs,
    ),
    update_throughput: series(
      perMinute(t.monthlyUpdates),
      perMinute(t.monthlyUpdates),
      points,
      stepMs,
    ),
    query_latency_mean: series(8, 6, points, stepMs),
    query_latency_99: series(40, 30, points, stepMs),
    update_latency_mean: series(5, 4, points, stepMs),
    update_latency_99: series(25, 20, points, stepMs),
    embeds_latency_mean: series(15, 10, points, stepMs),
    embeds_latency_99: series(60, 40, points, stepMs),
    rerank_latency_mean: series(30, 20, points, stepMs),
    rerank_latency_99: series(120, 80, points, stepMs),
    vector_count: rising(t.vectors, points, stepMs),
    data_size: rising(t.bytes, points, stepMs),
  };
}

/** `throughput_vector` of an index record: requests per minute over the last hour. */
export function throughputVector(id: string, nowMs: number): Point[] {
  const { series } = seriesMaker(seeded(`throughput:${id}`), minute(nowMs));
  return series(20, 20, 60, 60_000, true);
}

// --- QStash ----------------------------------------------------------------------------------------

/** `QStashStats` of a QStash user over `period`: per-day arrays for the whole current month. */
export function qstashStats(id: string, period: unknown, nowMs: number): Record<string, unknown> {
  const rng = seeded(`qstash:${id}`);
  const { points, stepMs } = periodSteps(period);
  const { series } = seriesMaker(rng, minute(nowMs));
  const now = new Date(nowMs);
  const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const length = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
  const today = now.getUTCDate() - 1;
  const perDay = Array.from({ length }, (_, i) => {
    // Future days are listed too, with zeros, so that positions match `days`.
    const y = i > today ? 0 : Math.round(200 + rng() * 2_000 * (i === today ? 0.4 : 1));
    return { x: timeText(first + i * DAY), y };
  });
  const daily_requests = perDay.map((p) => {
    const workflow_message = Math.round(p.y * 0.2);
    return { ...p, workflow_message, workflow_run: Math.round(workflow_message / 4) };
  });
  const daily_billings = perDay.map((p) => ({ x: p.x, y: round2(p.y * 0.00001) }));
  const metric = (id: string, base: number): { id: string; data_points: Point[] } => ({
    id,
    data_points: series(base, base, points, stepMs, true),
  });
  return {
    days: perDay.map((_, i) => weekday(first + i * DAY)),
    daily_requests,
    daily_billings,
    daily_bandwidths: perDay.map((p) => ({ x: p.x, y: p.y * 1_500 })),
    daily_used: series(2, 2, points, stepMs, true),
    daily_used_workflow: series(0.5, 1, points, stepMs, true),
    daily_bandwidth_used: series(3_000, 3_000, points, stepMs, true),
    daily_qstash_messages: [
      metric("delivered", 2),
      metric("failed", 0.2),
      metric("retry", 0.3),
      metric("canceled", 0.1),
    ],
    daily_workflow_messages: [metric("delivered", 0.5), metric("failed", 0.05)],
    dlq_message_count: Math.floor(rng() * 10),
    total_monthly_billing: round2(daily_billings.reduce((s, p) => s + p.y, 0)),
  };
}
