import type { LogEntry } from "./types.js";

/** Unix milliseconds written as a decimal string, as the older reference sends `time`. */
const UNIX_MS = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * The time of a log entry as a `Date`, whichever form the service sent: Unix milliseconds as a number
 * (the current reference) or as a string of digits (the older one); another string is read as a date
 * text (ISO 8601). A value that is none of these gives an invalid `Date` (`getTime()` is `NaN`), never
 * a wrong one.
 *
 * @example
 * for await (const entry of logs.iterate({ state: "FAILED" })) {
 *   console.log(entryDate(entry).toISOString(), entry.messageId);
 * }
 */
export function entryDate(entry: Pick<LogEntry, "time">): Date {
  const time: unknown = entry.time;
  if (typeof time === "number") return new Date(time);
  if (typeof time !== "string") return new Date(Number.NaN);
  return new Date(UNIX_MS.test(time) ? Number(time) : time);
}
