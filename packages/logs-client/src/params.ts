import { ValidationError } from "@api-clients/core";
import type { operations } from "./generated/schema.js";
import type { Instant, ListLogsParams } from "./types.js";

/** The query of `GET /v2/logs` as the spec types it. */
export type WireQuery = NonNullable<operations["listLogs"]["parameters"]["query"]>;

function toMillis(value: Instant, field: string): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== "number" || !Number.isFinite(ms)) {
    throw new ValidationError(field, "must be a Date or a finite number of Unix milliseconds");
  }
  return ms;
}

function upperCase(state: unknown): unknown {
  if (typeof state === "string") return state.toUpperCase();
  return Array.isArray(state)
    ? state.map((item: unknown) => (typeof item === "string" ? item.toUpperCase() : item))
    : state;
}

/**
 * The logs API's own query rules, the one owner for `list()`, `request()` and `raw` alike (the
 * request path runs it on every query as it is serialized): `state` sent upper case (the service
 * documents upper case only), and `fromDate` not after `toDate`. Returns a copy when it changes
 * `state`; throws a `ValidationError` to refuse.
 */
export function logsQueryRules(query: Record<string, unknown>): Record<string, unknown> {
  const from = query["fromDate"];
  const to = query["toDate"];
  if (typeof from === "number" && typeof to === "number" && from > to) {
    throw new ValidationError("fromDate", "must not be later than toDate");
  }
  const state = query["state"];
  return state === undefined ? query : { ...query, state: upperCase(state) };
}

/**
 * Turns `list()` parameters into the wire's query: dates to Unix ms. Every other rule is the
 * request path's: the spec's (known names, types, bounds) and {@link logsQueryRules}.
 */
export function toWireQuery(params: ListLogsParams | undefined): WireQuery {
  if (params === undefined) return {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new ValidationError("params", "must be an object of filters");
  }
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "fromDate" || name === "toDate") {
      if (value !== undefined) query[name] = toMillis(value as Instant, name);
    } else {
      query[name] = value;
    }
  }
  return query as WireQuery;
}
