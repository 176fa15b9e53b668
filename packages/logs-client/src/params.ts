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
 * Turns `list()` parameters into the wire's query: dates to Unix ms, states upper case, and `fromDate`
 * not after `toDate`. Every other rule (known names, types, bounds) is the spec's, checked by the
 * request pipeline before anything is sent.
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
      query[name] = name === "state" ? upperCase(value) : value;
    }
  }
  const from = query["fromDate"] as number | undefined;
  const to = query["toDate"] as number | undefined;
  if (from !== undefined && to !== undefined && from > to) {
    throw new ValidationError("fromDate", "must not be later than toDate");
  }
  return query as WireQuery;
}
