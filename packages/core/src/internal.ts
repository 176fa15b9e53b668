/**
 * Helpers shared by the `@api-clients/*` packages. **Not covered by semver**: anything exported from
 * `@api-clients/core/internal` may change in any release. Applications use the clients' own exports.
 *
 * @packageDocumentation
 */
export { basicAuthorization, bearerAuthorization } from "./internal/auth.js";
export { invalidResponse } from "./internal/buffered-response.js";
export { fromEnvironment } from "./internal/environment.js";
export {
  DEFAULT_MAX_EMPTY_PAGES,
  paginate,
  paginateItems,
  type PageReader,
  type PaginateOptions,
} from "./internal/pagination.js";
export { createApi, type Api, type ApiConfig, type CallInput } from "./internal/pipeline.js";
export { secretRedactor, serializedSecretRedactor } from "./internal/redact.js";
export {
  backoffDelayMs,
  INITIAL_RETRY_DELAY_MS,
  MAX_RETRY_DELAY_MS,
  retryDecision,
} from "./internal/retry-policy.js";
export {
  checkParams,
  checkQuery,
  checkRequest,
  checkValue,
  parsePathParam,
  parseQuery,
} from "./internal/schema.js";
export type { CheckOptions, RequestCheck } from "./internal/schema.js";
export type { OperationRules, OperationSpec, ParameterRule, Schema } from "./operation.js";
export {
  BURST_WINDOW_MS,
  checkConfiguredLimit,
  createClockedRateLimiter,
} from "./internal/rate-limit.js";
export {
  MAX_COUNT,
  MAX_RESET_AHEAD_MS,
  readWindow,
  refusingWindow,
  RESET_MARGIN_MS,
  shown,
  type RateLimitWindow,
} from "./internal/rate-limit-headers.js";
export { createRateLimitGate, remainingMs, type GateClock } from "./internal/rate-limit-gate.js";
