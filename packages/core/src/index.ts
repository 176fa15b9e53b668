// The public API of @api-clients/core (inside semver), and the one list both clients re-export
// (`export * from "@api-clients/core"`): the error classes, every default, the in-process rate limiter,
// and the option, log event, tracing, operation and raw-client types. README's "Public API" lists
// exactly these names (test/public-api/readme.test.ts compares the two).
// The package's other entry points: `@api-clients/core/errors` is a strict subset of this one (the
// error classes and their init types, from the one module that defines them) for code that only
// classifies errors and should load nothing else; `@api-clients/core/internal` is what the
// `@api-clients/*` packages share (not covered by semver).
export {
  AbortError,
  ApiClientError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  DeadlineExceededError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  type ApiErrorInit,
  type ConnectionErrorInit,
  type RateLimitInfo,
} from "./errors.js";
export {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type CallLogFields,
  type ClientOptions,
  type ErrorLogEvent,
  type LogEvent,
  type Logger,
  type RateLimitAnswer,
  type RateLimitContext,
  type RateLimiter,
  type RateLimitLogEvent,
  type RequestLogEvent,
  type RequestOptions,
  type ResponseLogEvent,
  type RetryLogEvent,
  type WarningLogEvent,
} from "./options.js";
export type {
  OperationInput,
  OperationResult,
  OperationRules,
  OperationSpec,
  ParameterRule,
  RequestArguments,
  RequestFunction,
  Schema,
} from "./operation.js";
export { MAX_RETRY_AFTER_MS } from "./internal/retry-policy.js";
export type { AttemptTrace, CallTrace } from "./internal/tracing.js";
export type { RawClient, RawMethod, RawReadable, RawResponse } from "./raw-client.js";
export {
  createRateLimiter,
  type ConfiguredLimit,
  type RateLimiterOptions,
} from "./internal/rate-limit.js";
export type { RateLimitScope } from "./internal/rate-limit-headers.js";
