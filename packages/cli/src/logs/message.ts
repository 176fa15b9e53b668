// `api-clients logs message <messageId>`: one message's history, every state it went through, oldest
// first. The order is the client's own (by time), never the server's `order`: a server that answers
// newest first, oldest first or shuffled gives the same history.
import type { LogEntry } from "@api-clients/logs-client";
import type { Context } from "../context.js";
import { defineCommand } from "../command.js";
import { count, duration } from "../output/progress.js";
import { printJson } from "../output/json.js";
import { safeText } from "../output/safe.js";
import { renderTable, type Column } from "../output/table.js";
import { entryColumns, entryTime } from "./entry-table.js";

/**
 * Most entries of one message read (a message with a thousand retries has some 3,000): beyond it the
 * history stops there, with a warning, so a server that ignores the filter costs bounded memory.
 */
export const MAX_MESSAGE_ENTRIES = 10_000;

/** One state of the history, as `--json` prints it. */
export interface HistoryState {
  state: string;
  /** Unix milliseconds (`null` when the entry's time is not a number). */
  time: number | null;
  /** Milliseconds since the previous state (`null` for the first). */
  sincePreviousMs: number | null;
  url?: unknown;
  topicName?: unknown;
  responseStatus?: unknown;
  error?: unknown;
  nextDeliveryTime?: unknown;
}

const field = (entry: LogEntry, name: string): unknown => (entry as Record<string, unknown>)[name];

/** `+40 ms`, `+1.5 s`, `+2 min 5 s`, `+3 h 12 min`, `+2 d 4 h`. */
export function gap(ms: number): string {
  if (ms < 1000) return `+${Math.round(ms)} ms`;
  if (ms < 3_600_000) return `+${duration(ms)}`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 24 * 60) return `+${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  const hours = Math.floor(minutes / 60);
  return `+${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/**
 * The entries oldest first, by time. Entries of the same millisecond keep the server's sequence, read
 * in the direction the server listed (newest first when its first entry is the later one, or when
 * the message's CREATED comes last).
 */
export function oldestFirst(entries: readonly LogEntry[]): LogEntry[] {
  const list = [...entries];
  const first = list[0];
  const last = list.at(-1);
  if (first !== undefined && last !== undefined) {
    const [a, b] = [entryTime(first), entryTime(last)];
    const newestFirst =
      a > b ||
      (a === b && field(last, "state") === "CREATED" && field(first, "state") !== "CREATED");
    if (newestFirst) list.reverse();
  }
  const key = (e: LogEntry) => {
    const t = entryTime(e);
    return Number.isFinite(t) ? t : Number.POSITIVE_INFINITY;
  };
  return list.sort((x, y) => key(x) - key(y)); // stable: ties keep the order above
}

/** The history of `messageId` on stdout: a table, or (`json`) `{ messageId, states, entries }`. */
export async function messageHistory(
  ctx: Context,
  messageId: string,
  json: boolean,
): Promise<void> {
  const entries: LogEntry[] = [];
  let others = 0;
  let capped = false;
  for await (const entry of ctx.logs().iterate({ messageId }, { signal: ctx.signal })) {
    // A server that ignores the filter must not mix other messages into this one's history.
    if (field(entry, "messageId") !== messageId) {
      others += 1;
    } else entries.push(entry);
    if (entries.length + others >= MAX_MESSAGE_ENTRIES) {
      capped = true;
      break;
    }
  }
  if (others > 0)
    ctx.err(
      ctx.errColors.yellow(
        `api-clients: the server returned ${count(others)} entries of other messages; left out`,
      ),
    );
  if (capped)
    ctx.err(
      ctx.errColors.yellow(
        `api-clients: stopped after ${count(MAX_MESSAGE_ENTRIES)} entries; the history may go on`,
      ),
    );
  if (entries.length === 0)
    throw new Error(
      `no log entries for message ${safeText(messageId)} (a mistyped id, or older than the log's retention)`,
    );

  const sorted = oldestFirst(entries);
  const states: HistoryState[] = [];
  let previous: number | undefined;
  for (const entry of sorted) {
    const t = entryTime(entry);
    const time = Number.isFinite(t) ? t : null;
    const state: HistoryState = {
      state: String(field(entry, "state") ?? ""),
      time,
      sincePreviousMs: time !== null && previous !== undefined ? time - previous : null,
    };
    for (const name of ["url", "topicName", "responseStatus", "error", "nextDeliveryTime"] as const)
      if (field(entry, name) !== undefined) state[name] = field(entry, name);
    if (time !== null) previous = time;
    states.push(state);
  }

  if (json) {
    await printJson(ctx, { messageId, states, entries: sorted }, sorted);
    return;
  }
  const first = states[0]?.time;
  const last = states.at(-1)?.time;
  const span =
    first !== null && first !== undefined && last !== null && last !== undefined
      ? ` over ${gap(last - first).slice(1)}`
      : "";
  ctx.out(
    ctx.colors.bold(
      `${safeText(messageId)}: ${states.length} state${states.length === 1 ? "" : "s"}${span}, now ${safeText(states.at(-1)?.state ?? "")}`,
    ) + "\n",
  );
  // The log table's columns, without the message id (it is the title) and with the time since the
  // previous state after the time.
  const base = entryColumns(ctx.colors).filter((c) => c.header !== "MESSAGE ID");
  const rows = sorted.map((entry, i) => ({ entry, state: states[i] as HistoryState }));
  type Row = (typeof rows)[number];
  const lift = ({ color, value, narrow, ...layout }: Column<LogEntry>): Column<Row> => ({
    ...layout,
    value: (r) => value(r.entry),
    ...(narrow ? { narrow: (r: Row) => narrow(r.entry) } : {}),
    ...(color ? { color: (cell: string, r: Row) => color(cell, r.entry) } : {}),
  });
  const [time, ...rest] = base.map(lift);
  const columns: Column<Row>[] = [
    time as Column<Row>,
    {
      header: "SINCE PREVIOUS",
      value: (r) => (r.state.sincePreviousMs === null ? "" : gap(r.state.sincePreviousMs)),
      right: true,
    },
    ...rest.map((c) => (c.header === "URL / TOPIC" ? { ...c, header: "DESTINATION" } : c)),
  ];
  ctx.out(
    renderTable(rows, columns, { terminalWidth: ctx.terminalWidth, headerStyle: ctx.colors.bold }),
  );
}

/** `api-clients logs message <messageId>`. */
export const messageCommand = defineCommand({
  path: ["logs", "message"],
  summary:
    "one message's history: every state oldest first, the time between states, each attempt's status and error",
  args: [{ name: "messageId", description: "the message id (msg_…)", fills: ["messageId"] }],
  flags: [
    {
      flags: "--json [fields]",
      description:
        "print { messageId, states, entries } as JSON, oldest first; with fields (--json state,time), only the entries with those fields",
    },
  ],
  read: (args, opts) => ({ messageId: args[0] as string, json: opts["json"] === true }),
  run: (ctx, input) => messageHistory(ctx, input.messageId, input.json),
});
