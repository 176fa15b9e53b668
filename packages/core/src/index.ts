export { basicAuthorization, bearerAuthorization } from "./auth.js";
export {
  ApiClientError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
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
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type ErrorLogEvent,
  type LogEvent,
  type Logger,
  type RequestLogEvent,
  type RequestOptions,
  type ResponseLogEvent,
  type RetryLogEvent,
} from "./options.js";
export { paginate, paginateItems, type PaginateOptions } from "./pagination.js";
export { invalidResponse, readAcknowledgement, readJson, type TextResult } from "./response.js";
export {
  INITIAL_RETRY_DELAY_MS,
  MAX_RETRY_AFTER_MS,
  MAX_RETRY_DELAY_MS,
  backoffDelayMs,
  isConnectionNotEstablished,
  isIdempotentMethod,
  parseRetryAfterMs,
  retryDecision,
  retryDelayMs,
  type RetryDecision,
  type RetryInput,
} from "./retry-policy.js";
export {
  createTransport,
  type OperationPolicy,
  type Transport,
  type TransportConfig,
  type TransportSummary,
} from "./transport.js";
export {
  rejectUnknownKeys,
  requireBoolean,
  requireInteger,
  requireNonEmptyString,
  requireObject,
  requireOneOf,
  requirePathSegment,
  type IntegerBounds,
} from "./validation.js";
