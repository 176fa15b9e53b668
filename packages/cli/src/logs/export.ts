// `api-clients logs export`: every page to NDJSON or CSV, streamed page by page. A page is written
// whole before its cursor becomes the resume point, so after Ctrl-C or a failure the file holds every
// entry before the printed cursor exactly once.
import { createWriteStream, statSync } from "node:fs";
import type { IterateLogsParams, LogEntry } from "@api-clients/logs-client";
import { UsageError, type Context } from "../context.js";
import { csvField, csvRow } from "../output/csv.js";
import { count, Progress } from "../output/progress.js";

/** The CSV columns when `--columns` is not given: the documented fields of an entry. */
export const DEFAULT_CSV_COLUMNS = [
  "time",
  "messageId",
  "state",
  "url",
  "topicName",
  "endpointName",
  "queueName",
  "scheduleId",
  "label",
  "method",
  "responseStatus",
  "error",
  "nextDeliveryTime",
  "maxRetries",
  "header",
  "body",
  "responseHeaders",
  "responseBody",
] as const;

/** Options of `logs export` besides the filters. */
export interface ExportOptions {
  format: "ndjson" | "csv";
  out: string | undefined;
  append: boolean;
  columns: readonly string[];
  progress: boolean;
  /** Stop after this many entries (all of them when undefined). */
  limit?: number | undefined;
  /** Share the rate limit with other exports (and services) through this Redis. */
  redisUrl?: string | undefined;
}

/** `--format`, or the one `--out`'s extension names, or NDJSON. */
export function exportFormat(
  format: string | undefined,
  out: string | undefined,
): "ndjson" | "csv" {
  const chosen = format ?? (out?.toLowerCase().endsWith(".csv") ? "csv" : "ndjson");
  if (chosen !== "ndjson" && chosen !== "csv")
    throw new UsageError(`--format: expected ndjson or csv, got ${JSON.stringify(format)}`);
  return chosen;
}

type Sink = NodeJS.WritableStream;

/** Writes a chunk and waits only when the stream asks to (its buffer is full). */
function write(sink: Sink, chunk: string): Promise<void> | undefined {
  if (sink.write(chunk)) return undefined;
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      sink.off("drain", done);
      sink.off("error", done);
      if (error) reject(error);
      else resolve();
    };
    sink.on("drain", done);
    sink.on("error", done);
  });
}

function fileHasData(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/** Runs the export; on interruption or failure, leaves the resume hint in `ctx.notes` and rethrows. */
export async function exportLogs(
  ctx: Context,
  params: IterateLogsParams,
  options: ExportOptions,
): Promise<void> {
  const { format, out, columns } = options;
  const writeHeader =
    format === "csv" && !(options.append && out !== undefined && fileHasData(out));
  // With --redis-url, parallel exports of one account share its budget instead of each keeping its own.
  let rateLimiter: { close(): Promise<void> } | undefined;
  if (options.redisUrl !== undefined) {
    const { createRedisRateLimiter } = await import("@api-clients/rate-limit-redis");
    try {
      rateLimiter = createRedisRateLimiter({ url: options.redisUrl });
    } catch (error) {
      throw new UsageError(`--redis-url: ${(error as Error).message.replace(/^url: /, "")}`);
    }
  }
  const logs = rateLimiter === undefined ? ctx.logs() : ctx.logsWith({ rateLimiter });
  let sinkError: unknown;
  // Opened with the first page (or at the end of an empty export), so that an export that fails
  // before any entry (a bad filter, a 401) leaves an existing --out file untouched.
  let sink: Sink | undefined;
  const open = (): Sink => {
    if (sink) return sink;
    const opened: Sink =
      out === undefined
        ? ctx.io.stdout
        : createWriteStream(out, { flags: options.append ? "a" : "w" });
    opened.on("error", (error) => (sinkError ??= error));
    if (writeHeader) opened.write(columns.map(csvField).join(",") + "\r\n");
    return (sink = opened);
  };
  const render =
    format === "csv"
      ? (events: LogEntry[]) => {
          let chunk = "";
          for (const entry of events) {
            const record = entry as Record<string, unknown>;
            chunk += csvRow(columns.map((c) => record[c]));
          }
          return chunk;
        }
      : (events: LogEntry[]) => {
          let chunk = "";
          for (const entry of events) chunk += JSON.stringify(entry) + "\n";
          return chunk;
        };

  const progress = options.progress ? new Progress(ctx.io.stderr, "exported") : undefined;
  const counts = { entries: 0, pages: 0 };
  if (progress !== undefined) {
    ctx.listen((event) => {
      if (event.type === "rate-limit") progress.waiting(event.delayMs, counts);
    });
  }
  // The cursor that fetches the first page not yet written (undefined: from the start, or finished).
  let resume = params.cursor;
  let failure: unknown;
  try {
    for await (const page of logs.pages(params, { signal: ctx.signal })) {
      const target = open();
      if (sinkError) throw sinkError;
      const room = options.limit === undefined ? Infinity : options.limit - counts.entries;
      const events = page.events.length > room ? page.events.slice(0, room) : page.events;
      const pending = write(target, render(events));
      counts.entries += events.length;
      counts.pages += 1;
      resume = page.cursor;
      progress?.update(counts);
      if (pending) await pending;
      if (counts.entries >= (options.limit ?? Infinity)) break;
    }
    open();
  } catch (error) {
    failure = error;
  }
  const opened = sink;
  if (opened !== undefined && opened !== ctx.io.stdout) {
    await new Promise<void>((resolve) => {
      opened.once("close", resolve);
      opened.end();
    });
  }
  failure ??= sinkError;
  await rateLimiter?.close();
  progress?.finish(counts);
  if (failure === undefined) return;

  const where = out === undefined ? "The output" : out;
  const written = `${count(counts.entries)} entries (${count(counts.pages)} pages)`;
  if (counts.pages === 0 && resume === undefined) {
    ctx.notes.push("Nothing was written; run the same command again.");
  } else if (resume !== undefined) {
    ctx.notes.push(
      `${where} holds ${written}: every entry before cursor ${resume}, each once.`,
      `Resume with: --cursor ${resume}${out === undefined ? "" : " --append"}`,
    );
  }
  throw failure;
}
