import { invalidResponse } from "@api-clients/core/internal";
import type { LogEntry, LogPage } from "./types.js";

/**
 * Reads a page tolerantly but never silently wrong: the entries arrive as `events` or `logs` (returned
 * as `events`) and are kept untouched; a page without either array is an `InvalidResponseError` (never
 * an empty last page). A numeric cursor is read as its decimal string when it is exact; `null`, `""` or
 * no cursor means the last page.
 */
export function readLogPage(data: unknown, response: Response): LogPage {
  const wire = data as { events?: unknown; logs?: unknown; cursor?: unknown };
  const events = wire.events ?? wire.logs;
  if (!Array.isArray(events)) {
    const reason =
      wire.events === undefined && wire.logs === undefined
        ? "expected a log page with an `events` or `logs` array"
        : "expected `events` to be an array";
    throw invalidResponse(response, reason, data);
  }
  const { cursor } = wire;
  if (cursor === undefined || cursor === null || cursor === "")
    return { events: events as LogEntry[] };
  if (typeof cursor === "string") return { events: events as LogEntry[], cursor };
  if (typeof cursor === "number" && Number.isSafeInteger(cursor)) {
    return { events: events as LogEntry[], cursor: String(cursor) };
  }
  throw invalidResponse(response, "expected `cursor` to be a string", data);
}
