/**
 * Typed, resilient client for the account management API: key-value databases, backups, teams,
 * vector and search indexes, QStash users and the audit log.
 * @packageDocumentation
 */

export { createManagementClient, DEFAULT_BASE_URL, DEFAULT_MANAGEMENT_BASE_URL } from "./client.js";
export type { ManagementClient, ManagementClientOptions } from "./client.js";
export type { Databases } from "./resources/databases.js";
export type { Backups } from "./resources/backups.js";
export type { Teams } from "./resources/teams.js";
export type { Vector } from "./resources/vector.js";
export type { Search } from "./resources/search.js";
export type { QStash } from "./resources/qstash.js";
export type { AuditLogs } from "./resources/audit-logs.js";
export {
  DATABASE_PLANS,
  EMBEDDING_MODELS,
  INDEX_TYPES,
  MEMBER_ROLES,
  PLATFORMS,
  PRIMARY_REGIONS,
  QSTASH_PLANS,
  READ_REGIONS,
  SEARCH_PLANS,
  SEARCH_REGIONS,
  SIMILARITY_FUNCTIONS,
  SPARSE_EMBEDDING_MODELS,
  STATS_PERIODS,
  TARGET_PLANS,
  VECTOR_PLANS,
  VECTOR_REGIONS,
} from "./enums.js";
export type * from "./types.js";
export type { components, paths, operations } from "./generated/schema.js";
/** The generated table of the spec's operations: method, path, retry safety and input rules. */
export { operations as operationTable } from "./generated/operations.js";
export type { OperationId } from "./generated/operations.js";

/**
 * Everything `@api-clients/core` exports (its public entry point, inside semver): the error classes
 * (one copy, so `instanceof` holds across clients), every default (`DEFAULT_*`, `MAX_RETRY_AFTER_MS`),
 * the in-process rate limiter (`createRateLimiter`), and the option, log event, tracing, operation and
 * `RawClient` types.
 */
export * from "@api-clients/core";
