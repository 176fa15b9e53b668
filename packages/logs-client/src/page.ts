import { invalidResponse, readJson, type TextResult } from "@api-clients/core";
import type { LogPage, LogPageWire } from "./types.js";

/**
 * Reads a page tolerantly: the entries may arrive as `events` or `logs` (returned as `events`), unknown
 * page fields are dropped and entries are kept untouched; a body that is not a page raises
 * `InvalidResponseError`.
 */
export function readLogPage(result: TextResult): LogPage {
  const wire = readJson<LogPageWire | null>(result);
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) {
    throw invalidResponse(result, "expected a log page object");
  }
  const events = wire.events ?? wire.logs ?? [];
  if (!Array.isArray(events)) throw invalidResponse(result, "expected `events` to be an array");
  const cursor = wire.cursor;
  return typeof cursor === "string" && cursor !== "" ? { events, cursor } : { events };
}
