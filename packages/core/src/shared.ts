// What every client re-exports from the shared runtime (`export * from "@api-clients/core/shared"`),
// kept in one list: the error classes, the option and operation types, and the rate limiter.
// Public (inside semver), like the package's main entry.

/** The error classes of the shared runtime (one copy, so `instanceof` holds across clients). */
export * from "./errors.js";
export type {
  ClientOptions,
  LogEvent,
  Logger,
  RateLimitAnswer,
  RateLimitContext,
  RateLimiter,
  RequestOptions,
} from "./options.js";
export type {
  OperationInput,
  OperationResult,
  OperationSpec,
  ParameterRule,
  RequestFunction,
  Schema,
} from "./operation.js";
export type { RawClient } from "./raw-client.js";
export type { ConfiguredLimit, RateLimiterOptions } from "./internal/rate-limit.js";
/** The in-process rate limiter (each client has one by default; pass one to share it, or to set a limit). */
export { createRateLimiter } from "./internal/rate-limit.js";
export { DEFAULT_DEADLINE_MS } from "./options.js";
