// `api-clients logs export`: every page to NDJSON or CSV, streamed page by page. A page is written
// whole before its cursor becomes the resume point, so after Ctrl-C or a failure the file holds every
// entry before the printed cursor exactly once.
import { fstatSync, ftruncateSync, statSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import {
  BadRequestError,
  entryDate,
  type IterateLogsParams,
  type ListLogsParams,
  type LogEntry,
} from "@api-clients/logs-client";
import { UsageError, type Context, type GlobalOptions } from "../context.js";
import { defineCommand } from "../command.js";
import { readValue } from "../operations.js";
import { LIMIT_HELP, logFilters, readFilters, readLimit } from "./filters.js";
import { commandLine, filterArgs, globalArgs, pinWindow, withoutPassword } from "./window.js";
import { csvField, csvRow } from "../output/csv.js";
import { count, Progress } from "../output/progress.js";
import { safeJson, safeText } from "../output/safe.js";

/** Entries per page when `--page-size` is not given: the most the API takes (`count`). */
export const EXPORT_PAGE_SIZE = 1_000;

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
  "timeMs",
] as const;

/**
 * A CSV cell of an entry: `time` as ISO 8601 in UTC (as the service sent it when it is no time),
 * `timeMs` as Unix milliseconds, any other column the entry's own field.
 */
function csvValue(entry: LogEntry, column: string): unknown {
  if (column === "time" || column === "timeMs") {
    const date = entryDate(entry);
    if (!Number.isNaN(date.getTime()))
      return column === "time" ? date.toISOString() : date.getTime();
    if (column === "timeMs") return undefined;
  }
  return Object.hasOwn(entry, column) ? (entry as Record<string, unknown>)[column] : undefined;
}

/** Options of `logs export` besides the filters. */
export interface ExportOptions {
  format: "ndjson" | "csv";
  out: string | undefined;
  append: boolean;
  /**
   * With `append`: the size the file had when the resume cursor was printed. The file is cut back to
   * it first, so that pages a killed run wrote after that point are not written twice.
   */
  atByte?: number | undefined;
  columns: readonly string[];
  progress: boolean;
  /** Stop after this many entries (all of them when undefined). */
  limit?: number | undefined;
  /** Share the rate limit with other exports (and services) through this Redis. */
  redisUrl?: string | undefined;
  /**
   * The command that resumes the export at `cursor` over the same absolute window, writing at most
   * `limit` more entries, after the first `bytes` of `--out` (printed when the export stops early).
   */
  resumeCommand: (cursor: string, limit: number | undefined, bytes: number | undefined) => string;
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

/**
 * A page's bytes, encoded once into a buffer that the next page reuses (it grows to the largest page
 * and stays): no string of the whole page is built, and a file sink allocates nothing per page. One
 * per export.
 */
class PageBytes {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private length = 0;

  /** Appends `text` as UTF-8. */
  append(text: string): void {
    // At most 3 bytes per UTF-16 code unit: room is checked without measuring the text.
    const most = this.length + text.length * 3;
    if (most > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(most, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(text, this.length);
  }

  /** The bytes appended since the last `take()`; valid until the next `append()`. */
  take(): Uint8Array {
    const bytes = this.buffer.subarray(0, this.length);
    this.length = 0;
    return bytes;
  }
}

/** Where an export writes: stdout, or a file that never ends mid-entry. */
interface Sink {
  /** Writes one page's bytes whole (or, for a file, none of them); they are not kept after. */
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /** How many bytes a file holds after the last whole page (undefined for stdout). */
  readonly bytes?: number;
}

/**
 * Writes to stdout, a page at a time: a page counts as written once the system has taken all of it.
 * Behind a redirect to a regular file, a page that cannot be written whole (a full disk, a size limit)
 * is cut off again, as with `--out`; a pipe or a device cannot take back what it took.
 */
function stdoutSink(stream: NodeJS.WritableStream): Sink {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd === "number" && isRegularFile(fd)) return stdoutFileSink(fd);
  let failed: Error | undefined;
  // Also keeps the binary's own handler (a quiet exit on EPIPE) out: the export reports it.
  stream.on("error", (error: Error) => (failed ??= error));
  return {
    write: (bytes) =>
      new Promise<void>((resolve, reject) => {
        if (failed !== undefined) return reject(stdoutError(failed));
        // A copy: a stream may keep what it is given (a caller's own stdout that collects chunks).
        stream.write(Buffer.from(bytes), (error) =>
          error ? reject(stdoutError((failed ??= error as Error))) : resolve(),
        );
      }),
    close: async () => {},
  };
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/** A stdout write error, saying what EPIPE means. */
const stdoutError = (error: Error): Error =>
  (error as NodeJS.ErrnoException).code === "EPIPE"
    ? new Error(
        "EPIPE: the program reading the output has closed it (it may not have read all the pipe held)",
        {
          cause: error,
        },
      )
    : error;

/** Stdout redirected to a regular file (`> out.ndjson`): written and cut back like `--out`. */
function stdoutFileSink(fd: number): Sink {
  let size = fstatSync(fd).size;
  return {
    async write(bytes) {
      try {
        // A write the system takes in part (at a size limit) goes on until it fails or is whole.
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
        size += bytes.length;
      } catch (error) {
        try {
          ftruncateSync(fd, size);
        } catch {
          // Not ours to cut back (another writer's file): the message still says why it stopped.
        }
        throw error;
      }
    },
    close: async () => {},
  };
}

/**
 * A file written page by page. A page that cannot be written whole (a full disk) is cut off again,
 * so the file ends with the last whole page and the resume cursor starts right after it. With
 * `atByte`, it is first cut back to that size: a run killed after the resume point was printed (kill
 * -9, a power cut) may have written pages past it, which the resumed run writes again.
 */
async function fileSink(path: string, append: boolean, atByte: number | undefined): Promise<Sink> {
  const handle = await open(path, append ? "a" : "w");
  let size = (await handle.stat()).size;
  if (atByte !== undefined && size !== atByte) {
    if (size < atByte) {
      await handle.close();
      throw new Error(
        `it holds ${size} bytes, fewer than --at-byte ${atByte}: not the file this resumes`,
      );
    }
    await handle.truncate(atByte);
    size = atByte;
  }
  return {
    get bytes() {
      return size;
    },
    async write(bytes) {
      try {
        for (let at = 0; at < bytes.length;)
          at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
        size += bytes.length;
      } catch (error) {
        await handle.truncate(size).catch(() => {});
        throw error;
      }
    },
    close: () => handle.close(),
  };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** A write failure: which file, why, in the system's words. */
class OutputError extends Error {
  override readonly name = "OutputError";
}

/** Runs the export; on interruption or failure, leaves the resume hint in `ctx.notes` and rethrows. */
export async function exportLogs(
  ctx: Context,
  params: IterateLogsParams,
  options: ExportOptions,
): Promise<void> {
  const { format, out, columns } = options;
  const { atByte } = options;
  if (atByte !== undefined && out !== undefined && fileSize(out) < atByte)
    throw new UsageError(
      `--at-byte: ${out} holds ${fileSize(out)} bytes, fewer than ${atByte}: not the file this resumes`,
    );
  const writeHeader =
    format === "csv" && !(options.append && out !== undefined && (atByte ?? fileSize(out)) > 0);
  // With --redis-url, parallel exports of one account share its budget instead of each keeping its own.
  let rateLimiter: { close(): Promise<void> } | undefined;
  if (options.redisUrl !== undefined) {
    // An optional add-on: installed beside the CLI only by those who use --redis-url.
    const { createRedisRateLimiter } = await import("@api-clients/rate-limit-redis").catch(() => {
      throw new UsageError(
        "--redis-url needs @api-clients/rate-limit-redis: npm install @api-clients/rate-limit-redis",
      );
    });
    try {
      rateLimiter = createRedisRateLimiter({ url: options.redisUrl });
    } catch (error) {
      throw new UsageError(`--redis-url: ${(error as Error).message.replace(/^url: /, "")}`);
    }
  }
  const progress = options.progress ? new Progress(ctx.io.stderr, "exported") : undefined;
  const counts = { entries: 0, pages: 0 };
  // Before the client is created: its events reach only the listeners it was created with.
  if (progress !== undefined) {
    ctx.listen((event) => {
      if (event.type === "rate-limit") progress.waiting(event.delayMs, counts);
    });
  }
  const logs = rateLimiter === undefined ? ctx.logs() : ctx.logsWith({ rateLimiter });
  // Opened with the first page (or at the end of an empty export), so that an export that fails
  // before any entry (a bad filter, a 401) leaves an existing --out file untouched.
  let sink: Sink | undefined;
  // Each page is encoded straight into these bytes (the CSV header before the first), then written whole.
  const bytes = new PageBytes();
  let headerDue = writeHeader;
  const output = async (): Promise<void> => {
    try {
      sink ??=
        out === undefined ? stdoutSink(ctx.io.stdout) : await fileSink(out, options.append, atByte);
      await sink.write(bytes.take());
    } catch (error) {
      throw new OutputError(
        `cannot write ${out ?? "to stdout"}: ${(error as Error).message ?? String(error)}`,
        { cause: error },
      );
    }
  };
  // A TTY shows what it is sent: no server text reaches it as control characters.
  const cell = out === undefined && ctx.io.stdout.isTTY === true ? safeText : (v: string) => v;
  // No credential in use reaches the output, whatever field holds it (an entry may show a forwarded
  // Authorization header), in the file as on stdout.
  const row =
    format === "csv"
      ? (entry: LogEntry) =>
          ctx.redactSerialized(cell(csvRow(columns.map((c) => csvValue(entry, c)))))
      : (entry: LogEntry) => ctx.redactSerialized(safeJson(entry) + "\n");
  const render = (events: readonly LogEntry[]): void => {
    if (headerDue) bytes.append(columns.map(csvField).join(",") + "\r\n");
    headerDue = false;
    for (const entry of events) bytes.append(row(entry));
  };

  // The cursor that fetches the first page not yet written (undefined: from the start, or finished).
  let resume = params.cursor;
  let failure: unknown;
  // Without --page-size, pages of the most the API takes: a tenth of the requests of the service's
  // default (100), and of the memory each one costs. A service that refuses the size (the current
  // reference says at most 100) answers the first request 400; the export then starts again at its
  // default, nothing written yet. The resume command names no page size either.
  let query =
    params.count === undefined
      ? { ...params, count: Math.min(EXPORT_PAGE_SIZE, options.limit ?? EXPORT_PAGE_SIZE) }
      : params;
  try {
    for (;;) {
      try {
        // No prefetch: one page in memory at a time. Writing a page takes a few milliseconds, far
        // less than a request to the service, so fetching ahead would gain little and hold two.
        for await (const page of logs.pages(query, { signal: ctx.signal, prefetch: false })) {
          // The page is written (whole) before its cursor becomes the resume point; with --limit,
          // only the entries the limit leaves room for.
          const room = options.limit === undefined ? Infinity : options.limit - counts.entries;
          const events = page.events.length > room ? page.events.slice(0, room) : page.events;
          render(events);
          await output();
          counts.entries += events.length;
          counts.pages += 1;
          resume = page.cursor;
          progress?.update(counts);
          if (counts.entries >= (options.limit ?? Infinity)) break;
        }
        break;
      } catch (error) {
        if (!(query !== params && counts.pages === 0 && error instanceof BadRequestError))
          throw error;
        query = params;
      }
    }
    render([]);
    await output();
  } catch (error) {
    failure = error;
  }
  try {
    await sink?.close();
  } catch (error) {
    failure ??= error;
  }
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
      `Resume with: ${options.resumeCommand(
        resume,
        options.limit === undefined ? undefined : options.limit - counts.entries,
        out === undefined ? undefined : (sink?.bytes ?? options.atByte ?? fileSize(out)),
      )}`,
    );
  }
  throw failure;
}

const { filters, flags } = logFilters(
  [],
  [
    {
      flags: "--format <format>",
      description: "ndjson or csv (default: csv when --out ends in .csv, else ndjson)",
      values: ["ndjson", "csv"],
    },
    { flags: "-o, --out <file>", description: "write to this file instead of stdout" },
    {
      flags: "--append",
      description:
        "append to --out instead of replacing it (to resume; CSV then writes no second header)",
    },
    {
      flags: "--at-byte <bytes>",
      description:
        "with --append: first cut --out back to this size (what the printed resume command gives)",
    },
    {
      flags: "--columns <names>",
      description: `CSV columns, comma-separated (default: ${DEFAULT_CSV_COLUMNS.join(",")})`,
    },
    { flags: "--limit <n>", description: LIMIT_HELP },
    { flags: "--no-progress", description: "no progress line on stderr" },
    {
      flags: "--redis-url <url>",
      description:
        "share the account's rate limit with other exports through this Redis (redis://host:port)",
    },
  ],
);

/** `--columns`: the CSV columns, each an entry's own field name. */
function readColumns(raw: unknown): string[] {
  const columns =
    typeof raw === "string"
      ? raw
          .split(",")
          .map((c) => c.trim())
          .filter(Boolean)
      : [...DEFAULT_CSV_COLUMNS];
  if (columns.length === 0) throw new UsageError("--columns: name at least one column");
  // A column is an entry's own field, never a member every object has (`constructor`, `__proto__`).
  const inherited = columns.find((c) => c in Object.prototype);
  if (inherited !== undefined)
    throw new UsageError(`--columns: ${JSON.stringify(inherited)} is not a field of an entry`);
  return columns;
}

/** `api-clients logs export`. */
export const exportCommand = defineCommand({
  path: ["logs", "export"],
  summary: "every matching entry to NDJSON or CSV, page by page, with progress on stderr",
  help: "\nThe window is fixed when the export starts: a time ago (--from 1h) is resolved once, and\nwithout --to it ends at that moment. On Ctrl-C or a failure it prints the command that\nresumes it: the same window as Unix ms (--from <ms> --to <ms>), --cursor <cursor>, and\n--append to continue the same --out file. The two runs then hold every entry of the\nwindow once, however many arrived in between.",
  flags,
  read: (_args, opts, env) => {
    const out = opts["out"] as string | undefined;
    const append = opts["append"] === true;
    if (append && out === undefined) throw new UsageError("--append: needs --out <file>");
    const atByte =
      opts["atByte"] === undefined
        ? undefined
        : (readValue(
            { type: "integer", minimum: 0 },
            opts["atByte"] as string,
            "--at-byte",
          ) as number);
    if (atByte !== undefined && !append) throw new UsageError("--at-byte: needs --append");
    const columns = readColumns(opts["columns"]);
    // The window is fixed once: relative bounds resolved and the end pinned to now, so that the
    // printed resume command reads the rest of exactly this window.
    const params = pinWindow(
      readFilters(opts, filters, env.now, env.warn) as ListLogsParams,
      env.now,
    );
    const format = opts["format"] as string | undefined;
    const redisUrl = opts["redisUrl"] as string | undefined;
    const progress = opts["progress"] !== false;
    const resume = (
      globals: GlobalOptions,
      cursor: string,
      limit: number | undefined,
      bytes: number | undefined,
    ): string =>
      commandLine([
        "api-clients",
        "logs",
        "export",
        ...globalArgs(globals),
        ...filterArgs({ ...params, cursor }, filters),
        ...(out === undefined ? [] : ["--out", out, "--append"]),
        ...(bytes === undefined ? [] : ["--at-byte", String(bytes)]),
        ...(format === undefined ? [] : ["--format", format]),
        ...(typeof opts["columns"] === "string" ? ["--columns", opts["columns"]] : []),
        ...(limit === undefined ? [] : ["--limit", String(limit)]),
        ...(progress ? [] : ["--no-progress"]),
        ...(redisUrl === undefined ? [] : ["--redis-url", withoutPassword(redisUrl)]),
      ]);
    return {
      params,
      resume,
      options: {
        format: exportFormat(format, out),
        out,
        append,
        atByte,
        columns,
        progress,
        redisUrl,
        limit: readLimit(opts),
      },
    };
  },
  run: (ctx, { params, resume, options }) =>
    exportLogs(ctx, params, {
      ...options,
      resumeCommand: (cursor, limit, bytes) => resume(ctx.options, cursor, limit, bytes),
    }),
});
