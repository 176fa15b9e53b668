import { describe, expect, it } from "vitest";
import * as core from "../../src/index.js";
import * as internal from "../../src/internal.js";

describe("the public entry point", () => {
  it("exports errors, defaults, the Retry-After cap and the in-process rate limiter only (at most 22 runtime names)", () => {
    expect(Object.keys(core).sort()).toEqual([
      "AbortError",
      "ApiClientError",
      "ApiError",
      "AuthenticationError",
      "BadRequestError",
      "ConflictError",
      "ConnectionError",
      "DEFAULT_DEADLINE_MS",
      "DEFAULT_MAX_RESPONSE_BYTES",
      "DEFAULT_MAX_RETRIES",
      "DEFAULT_TIMEOUT_MS",
      "DeadlineExceededError",
      "InternalServerError",
      "InvalidResponseError",
      "MAX_RETRY_AFTER_MS",
      "NotFoundError",
      "PermissionDeniedError",
      "RateLimitError",
      "TimeoutError",
      "UnprocessableEntityError",
      "ValidationError",
      "createRateLimiter",
    ]);
    expect(Object.keys(core).length).toBeLessThanOrEqual(22);
  });

  it("keeps the request path and the helpers in the internal entry point", () => {
    for (const name of [
      "createApi",
      "paginate",
      "paginateItems",
      "checkParams",
      "invalidResponse",
    ]) {
      expect(typeof (internal as Record<string, unknown>)[name]).toBe("function");
      expect(name in core).toBe(false);
    }
  });
});
