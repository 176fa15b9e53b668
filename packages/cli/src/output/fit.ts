// The width output is fitted to: the terminal's, when the stream is one.
import type { Io } from "../context.js";

/**
 * The width of `stream` in columns when it is a terminal (`COLUMNS` when set, else the terminal's
 * own, else 80), or `undefined` when it is not a terminal (a pipe or a file: nothing is fitted).
 */
export function streamWidth(io: Io, stream: "stdout" | "stderr"): number | undefined {
  const target = io[stream];
  if (target.isTTY !== true) return undefined;
  const columns = Number(io.env["COLUMNS"]);
  return Number.isInteger(columns) && columns > 0 ? columns : (target.columns ?? 80);
}
