import type { components } from "./generated/schema.js";

/** One entry of the delivery log, as the service sends it (unknown fields are kept). */
export type LogEntry = components["schemas"]["LogEntry"];
/** One page of the log as it arrives on the wire (`events` or `logs`, optional `cursor`). */
export type LogPageWire = components["schemas"]["LogPage"];
/** The error body of the logs API. */
export type LogsErrorBody = components["schemas"]["Error"];
