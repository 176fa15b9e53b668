// Task tools for what people ask first, built on `listLogs` through the logs client: a message's whole
// delivery history, and the failures of a time window counted by URL.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Backend } from "./backend.js";

/** Longest a task scans before answering with what it has (and where to continue), milliseconds. */
export const TASK_SCAN_MS = 20_000;

/** What a task returns: a value to bound and show. */
export type TaskResult = Record<string, unknown>;

/** A task tool: its listing and how to run it. */
export interface Task {
  readonly tool: Tool;
  run(
    backend: Backend,
    args: Record<string, unknown>,
    call: { signal: AbortSignal; now: () => number },
  ): Promise<TaskResult>;
}

const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

type Page = {
  events?: Record<string, unknown>[];
  logs?: Record<string, unknown>[];
  cursor?: string;
};

/**
 * Pages through `listLogs` with `query` until the end, `scanMs` or the call's signal, calling `take`
 * with each page's entries; resolves to the service cursor to continue from (`undefined` at the end).
 */
async function scan(
  backend: Backend,
  query: Record<string, unknown>,
  call: { signal: AbortSignal; now: () => number },
  take: (entries: Record<string, unknown>[]) => void,
  scanMs = TASK_SCAN_MS,
): Promise<string | undefined> {
  const stopAt = call.now() + scanMs;
  let cursor = typeof query["cursor"] === "string" ? query["cursor"] : undefined;
  do {
    const page = (await backend.send(
      "logs",
      "listLogs",
      { query: { ...query, count: 1000, ...(cursor === undefined ? {} : { cursor }) } },
      { signal: call.signal },
    )) as Page;
    take(page.events ?? page.logs ?? []);
    cursor = typeof page.cursor === "string" && page.cursor !== "" ? page.cursor : undefined;
  } while (cursor !== undefined && call.now() < stopAt);
  return cursor;
}

/** What a task that ran out of scanning time adds to its result. */
const INCOMPLETE = {
  incomplete: true,
  note: `Stopped after ${TASK_SCAN_MS / 1000} s of scanning: narrow the window for a complete answer.`,
};

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** `message_history`: every state a message went through, oldest first. */
const messageHistory: Task = {
  tool: {
    name: "message_history",
    title: "A message's delivery history",
    description:
      "Every state one message went through, oldest first: time, state, URL, response status and error.",
    inputSchema: {
      type: "object",
      properties: { messageId: { type: "string" } },
      required: ["messageId"],
    },
    annotations: READ,
  },
  async run(backend, args, call) {
    const messageId = String(args["messageId"] ?? "");
    const entries: Record<string, unknown>[] = [];
    const rest = await scan(backend, { messageId, order: "earliestFirst" }, call, (page) => {
      for (const e of page) {
        const row: Record<string, unknown> = { time: e["time"], state: e["state"] };
        for (const key of ["url", "topicName", "responseStatus", "error", "nextDeliveryTime"])
          if (e[key] !== undefined) row[key] = e[key];
        entries.push(row);
      }
    });
    return {
      messageId,
      entries,
      ...(rest === undefined ? {} : INCOMPLETE),
    };
  },
};

/** `failures_by_url`: the failed deliveries of a window, counted by URL. */
const failuresByUrl: Task = {
  tool: {
    name: "failures_by_url",
    title: "Failures by URL",
    description:
      "Failed deliveries (state FAILED) over a window, counted by destination URL, with each URL's last error. Window: fromDate/toDate (Unix ms), else the last windowMinutes (default 60).",
    inputSchema: {
      type: "object",
      properties: {
        windowMinutes: { type: "integer", minimum: 1 },
        fromDate: { type: "integer" },
        toDate: { type: "integer" },
      },
    },
    annotations: READ,
  },
  async run(backend, args, call) {
    const toDate = typeof args["toDate"] === "number" ? args["toDate"] : call.now();
    const minutes = typeof args["windowMinutes"] === "number" ? args["windowMinutes"] : 60;
    const fromDate =
      typeof args["fromDate"] === "number" ? args["fromDate"] : toDate - minutes * 60_000;
    const byUrl = new Map<string, { failures: number; lastError?: string; lastTime?: unknown }>();
    let total = 0;
    const rest = await scan(
      backend,
      { state: "FAILED", fromDate, toDate, order: "earliestFirst" },
      call,
      (page) => {
        for (const e of page) {
          total += 1;
          const url = text(e["url"]) ?? text(e["topicName"]) ?? "(none)";
          const row = byUrl.get(url) ?? { failures: 0 };
          row.failures += 1;
          const error = text(e["error"]);
          if (error !== undefined) row.lastError = error;
          row.lastTime = e["time"];
          byUrl.set(url, row);
        }
      },
    );
    const urls = [...byUrl]
      .map(([url, row]) => ({ url, ...row }))
      .sort((a, b) => b.failures - a.failures || (a.url < b.url ? -1 : 1));
    return {
      fromDate,
      toDate,
      failures: total,
      urls,
      ...(rest === undefined ? {} : INCOMPLETE),
    };
  },
};

/** The task tools (toolset `logs`). */
export const TASKS: readonly Task[] = [messageHistory, failuresByUrl];
