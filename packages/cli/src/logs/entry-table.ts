// How a log entry looks in a table: local time, coloured state, message id, destination, response
// status and the start of the error.
import { entryDate, type LogEntry } from "@api-clients/logs-client";
import type { Colors } from "../output/colors.js";
import type { Column } from "../output/table.js";

const pad2 = (n: number) => String(n).padStart(2, "0");

/** Unix milliseconds as a local ISO 8601 time with offset: `2025-06-01T14:03:07.123+02:00`. */
export function localIso(ms: number): string {
  const d = new Date(ms);
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  const abs = Math.abs(offset);
  return (
    `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}` +
    `T${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}` +
    `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`
  );
}

/** An entry's `time` (Unix ms as a number or a string) as Unix ms, or `NaN`. */
export function entryTime(entry: LogEntry): number {
  return entryDate(entry).getTime();
}

const field = (entry: LogEntry, name: string): unknown => (entry as Record<string, unknown>)[name];
const text = (value: unknown): string =>
  value === undefined || value === null
    ? ""
    : typeof value === "string"
      ? value
      : JSON.stringify(value);

/** The colour of a state: green delivered, red failed or errored, yellow retrying, dim cancelled. */
export function stateColor(colors: Colors, state: string): (s: string) => string {
  switch (state.toUpperCase()) {
    case "DELIVERED":
      return colors.green;
    case "FAILED":
    case "ERROR":
      return colors.red;
    case "RETRY":
      return colors.yellow;
    case "ACTIVE":
    case "CREATED":
      return colors.cyan;
    case "CANCEL_REQUESTED":
    case "CANCELLED":
    case "CANCELED":
      return colors.dim;
    default:
      return (s) => s;
  }
}

/** The columns of a log table. */
export function entryColumns(colors: Colors): Column<LogEntry>[] {
  return [
    {
      header: "TIME",
      value: (e) => {
        const t = entryTime(e);
        return Number.isFinite(t) ? localIso(t) : text(field(e, "time"));
      },
      // On a narrow terminal: local month, day and time to the second.
      narrow: (e) => {
        const t = entryTime(e);
        return Number.isFinite(t)
          ? localIso(t).slice(5, 19).replace("T", " ")
          : text(field(e, "time"));
      },
    },
    {
      header: "STATE",
      min: 9,
      value: (e) => text(field(e, "state")),
      color: (cell, e) => stateColor(colors, text(field(e, "state")))(cell),
    },
    {
      header: "MESSAGE ID",
      value: (e) => text(field(e, "messageId")),
      id: true,
    },
    {
      header: "URL / TOPIC",
      value: (e) => {
        const topic = text(field(e, "topicName"));
        const url = text(field(e, "url"));
        return topic !== "" && url !== "" ? `${topic}: ${url}` : topic || url;
      },
      min: 24,
      max: 60,
      shrink: true,
      drop: 1,
    },
    { header: "STATUS", value: (e) => text(field(e, "responseStatus")), right: true, drop: 3 },
    {
      header: "ERROR",
      value: (e) => text(field(e, "error")),
      min: 16,
      max: 60,
      shrink: true,
      drop: 2,
      color: (cell) => colors.red(cell),
    },
  ];
}
