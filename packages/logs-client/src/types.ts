import { logStateKnownValues, type components, type operations } from "./generated/schema.js";

/** One entry of the delivery log, as the service sends it (unknown fields are kept untouched). */
export type LogEntry = components["schemas"]["LogEntry"];

/** One page of the log as it arrives on the wire (`events` or `logs`, optional `cursor`). */
export type LogPageWire = components["schemas"]["LogPage"];

/** The error body of the logs API. */
export type LogsErrorBody = components["schemas"]["Error"];

/**
 * The states the service documents, upper case as on the wire (from the spec; `CANCELED` is the
 * spelling some deployments send for `CANCELLED`). The service may add states: read any string.
 */
export const LOG_STATES = logStateKnownValues;

/** A documented state of a log entry. */
export type KnownLogState = (typeof LOG_STATES)[number];

/**
 * A `state` filter: a documented state (any case), the filter-only `IN_PROGRESS` (ACTIVE, RETRY or
 * ERROR), or any other string the service may add. Sent upper case.
 */
export type LogStateFilter =
  KnownLogState | "IN_PROGRESS" | Lowercase<KnownLogState | "IN_PROGRESS"> | (string & {});

/** A point in time: Unix milliseconds or a `Date`. */
export type Instant = number | Date;

type WireQuery = NonNullable<operations["listLogs"]["parameters"]["query"]>;

/** Filters and paging of `logs.list()`; names and meaning follow the API's query parameters. */
export type ListLogsParams = Omit<WireQuery, "state" | "fromDate" | "toDate"> & {
  /** Only entries in this state (case-insensitive; sent upper case). */
  state?: LogStateFilter;
  /** Start of the range, inclusive: Unix milliseconds or a `Date`. */
  fromDate?: Instant;
  /** End of the range, inclusive: Unix milliseconds or a `Date`. */
  toDate?: Instant;
};

/** Filters of `logs.iterate()` and `logs.pages()`: those of `list()`, with `cursor` as the starting point. */
export type IterateLogsParams = ListLogsParams;

/** One page of log entries, normalized: the entries are always under `events`. */
export interface LogPage {
  /** The entries of this page, in the requested order. */
  events: LogEntry[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  cursor?: string;
}
