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
/** The error classes of the shared runtime (one copy, so `instanceof` holds across clients). */
export * from "@api-clients/core/errors";
export type {
  ClientOptions,
  ConfiguredLimit,
  LogEvent,
  Logger,
  OperationInput,
  OperationResult,
  OperationSpec,
  ParameterRule,
  RateLimitAnswer,
  RateLimitContext,
  RateLimiter,
  RateLimiterOptions,
  RequestFunction,
  RequestOptions,
  Schema,
} from "@api-clients/core";
/** The in-process rate limiter (each client has one by default; pass one to share it, or to set a limit). */
export { createRateLimiter, DEFAULT_DEADLINE_MS } from "@api-clients/core";
