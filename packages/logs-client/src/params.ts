import {
  ValidationError,
  rejectUnknownKeys,
  requireInteger,
  requireOneOf,
} from "@api-clients/core";
import { componentsParametersOrderValues, type operations } from "./generated/schema.js";
import type { Instant, ListLogsParams } from "./types.js";

/** The query of `GET /v2/logs` as the spec types it. */
export type WireQuery = NonNullable<operations["listLogs"]["parameters"]["query"]>;

/** The query parameters whose values are strings, sent as given (state upper-cased). */
const STRING_PARAMS = [
  "cursor",
  "messageId",
  "state",
  "url",
  "topicName",
  "scheduleId",
  "queueName",
] as const satisfies readonly (keyof WireQuery)[];
/** Every query parameter of the spec's `listLogs`. */
const PARAM_NAMES = [
  ...STRING_PARAMS,
  "fromDate",
  "toDate",
  "count",
  "order",
] as const satisfies readonly (keyof WireQuery)[];

function toMillis(value: Instant, field: string): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== "number" || !Number.isFinite(ms)) {
    throw new ValidationError(field, "must be a Date or a finite number of Unix milliseconds");
  }
  return ms;
}

/**
 * Checks `list()` parameters and turns them into the wire's query: dates to Unix ms, state upper case.
 * Throws `ValidationError` naming the field and the rule, before any request is made.
 */
export function toWireQuery(params: ListLogsParams | undefined): WireQuery {
  if (params === undefined) return {};
  rejectUnknownKeys(params, "params", PARAM_NAMES);
  const query: WireQuery = {};
  for (const name of STRING_PARAMS) {
    const value = params[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "")
      throw new ValidationError(name, "must be a non-empty string");
    query[name] = value;
  }
  if (query.state !== undefined) query.state = query.state.toUpperCase();
  if (params.fromDate !== undefined) query.fromDate = toMillis(params.fromDate, "fromDate");
  if (params.toDate !== undefined) query.toDate = toMillis(params.toDate, "toDate");
  if (query.fromDate !== undefined && query.toDate !== undefined && query.fromDate > query.toDate) {
    throw new ValidationError("fromDate", "must not be later than toDate");
  }
  if (params.count !== undefined)
    query.count = requireInteger(params.count, "count", { min: 1, max: 1000 });
  if (params.order !== undefined)
    query.order = requireOneOf(params.order, "order", componentsParametersOrderValues);
  return query;
}

/** `?name=value&…` with every value percent-encoded (as openapi-fetch does), or `""` for no query. */
export function queryString(query: WireQuery): string {
  let text = "";
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined)
      text += `${text === "" ? "?" : "&"}${name}=${encodeURIComponent(value)}`;
  }
  return text;
}
