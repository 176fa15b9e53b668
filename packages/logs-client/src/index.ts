export { createLogsClient, DEFAULT_LOGS_BASE_URL } from "./client.js";
export type { LogsClient, LogsClientOptions, PaginationOptions } from "./client.js";
export { LOG_STATES } from "./types.js";
export { entryDate } from "./time.js";
export type {
  Instant,
  IterateLogsParams,
  KnownLogState,
  ListLogsParams,
  LogEntry,
  LogPage,
  LogPageWire,
  LogStateFilter,
  LogsErrorBody,
} from "./types.js";
export type { paths, components, operations } from "./generated/schema.js";
/** The generated table of the spec's operations: method, path, retry safety and parameter rules. */
export { operations as operationTable, type OperationId } from "./generated/operations.js";
/**
 * Everything `@api-clients/core` exports (its public entry point, inside semver): the error classes
 * (one copy, so `instanceof` holds across clients), every default (`DEFAULT_*`, `MAX_RETRY_AFTER_MS`),
 * the in-process rate limiter (`createRateLimiter`), and the option, log event, tracing, operation and
 * `RawClient` types.
 */
export * from "@api-clients/core";
