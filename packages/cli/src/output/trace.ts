// `--trace`: records the calls the run made from the clients' tracing channels (api-clients:call and
// api-clients:attempt) and draws them as a waterfall on stderr when the run ends: operation, attempts,
// the waits between them, durations and statuses. Times are the process's monotonic clock.
import { tracingChannel } from "node:diagnostics_channel";
import type { AttemptTrace, CallTrace } from "@api-clients/core";

/** One attempt of a recorded call (milliseconds from the start of the recording). */
export interface TracedAttempt {
  attempt: number;
  start: number;
  end?: number;
  status?: number;
  error?: string;
  /** The wait that followed it (before the next attempt). */
  retryDelayMs?: number;
  /** The wait for the client's rate limit before it was sent. */
  rateLimitWaitMs: number;
}

/** One recorded call. */
export interface TracedCall {
  operationId: string;
  method: string;
  path: string;
  start: number;
  end?: number;
  status?: number;
  error?: string;
  attempts: TracedAttempt[];
}

/** Most calls kept (a long `logs tail` makes one per poll): the first ones and a count of the rest. */
export const MAX_TRACED_CALLS = 200;

/** What went wrong, short: an HTTP status is shown on its own, else the error's class. */
const failure = (error: unknown): string | undefined =>
  error === undefined ? undefined : error instanceof Error ? error.name : "Error";

/** Starts recording every call of this process; `stop()` unsubscribes and returns what it saw. */
export function recordCalls(): { stop(): { calls: TracedCall[]; dropped: number } } {
  const origin = performance.now();
  const now = () => performance.now() - origin;
  const calls: TracedCall[] = [];
  const open = new Map<string, TracedCall>();
  const attempts = new WeakMap<AttemptTrace, TracedAttempt>();
  let dropped = 0;
  const call = {
    start(ctx: CallTrace) {
      if (calls.length >= MAX_TRACED_CALLS) {
        dropped += 1;
        return;
      }
      const { operationId, method, path } = ctx;
      const traced: TracedCall = { operationId, method, path, start: now(), attempts: [] };
      calls.push(traced);
      open.set(ctx.callId, traced);
    },
    asyncEnd(ctx: CallTrace) {
      const traced = open.get(ctx.callId);
      if (traced === undefined) return;
      open.delete(ctx.callId);
      traced.end = now();
      if (ctx.status !== undefined) traced.status = ctx.status;
      const error = failure(ctx.error);
      if (error !== undefined) traced.error = error;
    },
  };
  const attempt = {
    start(ctx: AttemptTrace) {
      const traced = open.get(ctx.callId);
      if (traced === undefined) return;
      const record = { attempt: ctx.attempt, start: now(), rateLimitWaitMs: ctx.rateLimitWaitMs };
      traced.attempts.push(record);
      attempts.set(ctx, record);
    },
    asyncEnd(ctx: AttemptTrace) {
      const record = attempts.get(ctx);
      if (record === undefined) return;
      record.end = now();
      if (ctx.status !== undefined) record.status = ctx.status;
      const error = failure(ctx.error);
      if (error !== undefined) record.error = error;
      if (ctx.retryDelayMs !== undefined) record.retryDelayMs = ctx.retryDelayMs;
    },
  };
  const calls$ = tracingChannel("api-clients:call");
  const attempts$ = tracingChannel("api-clients:attempt");
  calls$.subscribe(call as never);
  attempts$.subscribe(attempt as never);
  return {
    stop() {
      calls$.unsubscribe(call as never);
      attempts$.unsubscribe(attempt as never);
      return { calls, dropped };
    },
  };
}

const ms = (value: number): string =>
  value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;

/**
 * The waterfall of recorded calls as text: a row per call, per attempt and per wait, each with its
 * start, its duration, its status (or error) and a bar on a common time axis `width` columns wide.
 */
export function renderWaterfall(
  recorded: { calls: TracedCall[]; dropped: number },
  barWidth = 40,
  /** The terminal's width: labels and then the bar narrow so that no line is wider. */
  columns?: number,
): string {
  const { calls, dropped } = recorded;
  if (calls.length === 0) return "trace: no calls\n";
  const total = Math.max(1, ...calls.map((c) => c.end ?? c.start));
  const rows: [string, number, number | undefined, string, string][] = [];
  for (const call of calls) {
    const n = call.attempts.length;
    const outcome = call.error ?? String(call.status ?? "");
    rows.push([
      `${call.operationId || `${call.method} ${call.path}`}${n > 1 ? ` (${n} attempts)` : ""}`,
      call.start,
      call.end,
      outcome,
      "█",
    ]);
    for (const a of call.attempts) {
      if (a.rateLimitWaitMs > 0) {
        rows.push(["  rate-limit wait", a.start - a.rateLimitWaitMs, a.start, "", "░"]);
      }
      const status = a.status === undefined ? (a.error ?? "") : String(a.status);
      rows.push([`  #${a.attempt} ${call.method} ${call.path}`, a.start, a.end, status, "▆"]);
      if (a.retryDelayMs !== undefined && a.end !== undefined) {
        rows.push(["  retry wait", a.end, a.end + a.retryDelayMs, "", "░"]);
      }
    }
  }
  // Every line is the label, 32 columns of figures and the bar between two "|".
  const FIXED = 2 + 8 + 2 + 8 + 2 + 6 + 2 + 2;
  let label = Math.min(48, Math.max(...rows.map((r) => r[0].length)));
  let width = barWidth;
  if (columns !== undefined && label + FIXED + width > columns) {
    width = Math.max(10, columns - FIXED - label);
    label = Math.max(12, Math.min(label, columns - FIXED - width));
  }
  const scale = (t: number) => Math.min(width, Math.round((t / total) * width));
  const lines = [
    `trace: ${calls.length} call${calls.length === 1 ? "" : "s"} in ${ms(total)}`,
    `${"".padEnd(label)}  ${"start".padStart(8)}  ${"took".padStart(8)}  ${"status".padEnd(6)}  |${"".padEnd(width)}|`,
  ];
  for (const [name, start, end, outcome, fill] of rows) {
    const from = scale(start);
    const to = end === undefined ? width : Math.max(from + 1, scale(end));
    const bar = " ".repeat(from) + fill.repeat(Math.min(width, to) - from);
    const took = end === undefined ? "…" : ms(end - start);
    const shown = name.length > label ? `${name.slice(0, label - 1)}…` : name;
    lines.push(
      `${shown.padEnd(label)}  ${ms(start).padStart(8)}  ${took.padStart(8)}  ${outcome.padEnd(6)}  |${bar.padEnd(width)}|`,
    );
  }
  if (dropped > 0)
    lines.push(`… and ${dropped} more calls (only the first ${MAX_TRACED_CALLS} are kept)`);
  return `${lines.join("\n")}\n`;
}
