import { describe, expect, it } from "vitest";
import { ConnectionError, MAX_RETRY_AFTER_MS, TimeoutError } from "../../src/index.js";
import { backoffDelayMs, retryDecision } from "../../src/internal.js";
import { parseRetryAfterMs } from "../../src/internal/retry-after.js";
import {
  isConnectionNotEstablished,
  type RetryDecision,
  type RetryInput,
} from "../../src/internal/retry-policy.js";

const refused = new ConnectionError("refused", {
  cause: Object.assign(new TypeError("fetch failed"), {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }),
  }),
});
const reset = new ConnectionError("reset", {
  cause: Object.assign(new TypeError("fetch failed"), {
    cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
  }),
});
const timeout = new TimeoutError({ timeoutMs: 10 });
const noJitter = (): number => 0;
const h = (init: Record<string, string>): Headers => new Headers(init);

describe("retryDecision", () => {
  const base = { attempt: 1, maxRetries: 2, random: noJitter };
  const cases: Array<[string, Omit<RetryInput, "attempt" | "maxRetries">, RetryDecision]> = [
    [
      "503 idempotent",
      { idempotent: true, status: 503 },
      { retry: true, delayMs: 500, reason: "status 503" },
    ],
    [
      "503 non-idempotent",
      { idempotent: false, status: 503 },
      { retry: false, reason: "status 503" },
    ],
    [
      "408 idempotent",
      { idempotent: true, status: 408 },
      { retry: true, delayMs: 500, reason: "status 408" },
    ],
    [
      "429 non-idempotent",
      { idempotent: false, status: 429 },
      { retry: true, delayMs: 500, reason: "status 429" },
    ],
    ["400 never", { idempotent: true, status: 400 }, { retry: false, reason: "status 400" }],
    ["404 never", { idempotent: true, status: 404 }, { retry: false, reason: "status 404" }],
    [
      "x-should-retry true on 400 POST",
      { idempotent: false, status: 400, headers: h({ "x-should-retry": "true" }) },
      { retry: true, delayMs: 500, reason: "status 400" },
    ],
    [
      "x-should-retry false on 503 GET",
      { idempotent: true, status: 503, headers: h({ "x-should-retry": "false" }) },
      { retry: false, reason: "status 503" },
    ],
    [
      "Retry-After seconds",
      { idempotent: false, status: 429, headers: h({ "retry-after": "3" }) },
      { retry: true, delayMs: 3000, reason: "status 429" },
    ],
    [
      "retry-after-ms wins over Retry-After",
      {
        idempotent: true,
        status: 503,
        headers: h({ "retry-after-ms": "120", "retry-after": "9" }),
      },
      { retry: true, delayMs: 120, reason: "status 503" },
    ],
    [
      "Retry-After over 60 s gives up",
      { idempotent: true, status: 429, headers: h({ "retry-after": "61" }) },
      {
        retry: false,
        reason: "status 429; server asked to wait 61000 ms",
        note: "not retried: the server asked to wait 61 s (Retry-After), more than the 60 s limit",
      },
    ],
    [
      "Retry-After of exactly 60 s is honoured",
      { idempotent: true, status: 429, headers: h({ "retry-after": "60" }) },
      { retry: true, delayMs: 60_000, reason: "status 429" },
    ],
    [
      "timeout idempotent",
      { idempotent: true, error: timeout },
      { retry: true, delayMs: 500, reason: "timeout" },
    ],
    [
      "timeout non-idempotent",
      { idempotent: false, error: timeout },
      { retry: false, reason: "timeout" },
    ],
    [
      "refused non-idempotent",
      { idempotent: false, error: refused },
      { retry: true, delayMs: 500, reason: "connection error" },
    ],
    [
      "reset non-idempotent",
      { idempotent: false, error: reset },
      { retry: false, reason: "connection error" },
    ],
    [
      "reset idempotent",
      { idempotent: true, error: reset },
      { retry: true, delayMs: 500, reason: "connection error" },
    ],
    [
      "unknown error",
      { idempotent: true, error: new Error("x") },
      { retry: false, reason: "not retryable" },
    ],
  ];
  it.each(cases)("%s", (_name, given, want) => {
    expect(retryDecision({ ...base, ...given })).toEqual(want);
  });

  it("stops when retries are exhausted", () => {
    expect(retryDecision({ attempt: 3, maxRetries: 2, idempotent: true, status: 503 })).toEqual({
      retry: false,
      reason: "status 503; retries exhausted",
    });
    expect(retryDecision({ attempt: 1, maxRetries: 0, idempotent: false, status: 429 })).toEqual({
      retry: false,
      reason: "status 429; retries exhausted",
    });
  });
});

describe("backoffDelayMs", () => {
  it.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [4, 4000],
    [5, 8000],
    [9, 8000],
  ])("attempt %i waits %i ms before jitter", (attempt, want) => {
    expect(backoffDelayMs(attempt, noJitter)).toBe(want);
  });

  it("jitter removes at most 25 %", () => {
    expect(backoffDelayMs(1, () => 0.999_999)).toBe(375);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelayMs(2);
      expect(delay).toBeGreaterThanOrEqual(750);
      expect(delay).toBeLessThanOrEqual(1000);
    }
  });
});

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it.each<[string, Record<string, string>, number | undefined]>([
    ["whole seconds", { "retry-after": "2" }, 2000],
    ["fractional seconds (not delta-seconds)", { "retry-after": "0.05" }, undefined],
    ["hexadecimal", { "retry-after": "0x2" }, undefined],
    ["exponent", { "retry-after": "1e3" }, undefined],
    ["a sign", { "retry-after": "+2" }, undefined],
    ["surrounding white space", { "retry-after": " 2 " }, 2000],
    ["HTTP date, RFC 850 form", { "retry-after": "Wednesday, 01-Jan-25 00:00:04 GMT" }, 4000],
    ["a date-like string that is not an HTTP-date", { "retry-after": "2025-01-01" }, undefined],
    ["decimal retry-after-ms", { "retry-after-ms": "12.5" }, 12.5],
    ["negative retry-after-ms falls back", { "retry-after-ms": "-5", "retry-after": "1" }, 1000],
    ["HTTP date", { "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }, 3000],
    ["HTTP date in the past", { "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }, 0],
    ["retry-after-ms", { "retry-after-ms": "250" }, 250],
    ["retry-after-ms first", { "retry-after-ms": "250", "retry-after": "1" }, 250],
    ["invalid retry-after-ms falls back", { "retry-after-ms": "soon", "retry-after": "1" }, 1000],
    ["negative", { "retry-after": "-1" }, undefined],
    ["garbage", { "retry-after": "later" }, undefined],
    ["absent", {}, undefined],
  ])("%s", (_name, headers, want) => {
    expect(parseRetryAfterMs(new Headers(headers), now)).toBe(want);
  });

  it("the cap is 60 s", () => {
    expect(MAX_RETRY_AFTER_MS).toBe(60_000);
  });
});

describe("isConnectionNotEstablished", () => {
  it.each<[string, unknown, boolean]>([
    ["ECONNREFUSED in cause chain", refused, true],
    ["ENOTFOUND", { cause: { code: "ENOTFOUND" } }, true],
    ["AggregateError of refusals", { cause: { errors: [{ code: "ECONNREFUSED" }] } }, true],
    ["socket reset", reset, false],
    ["plain error", new Error("x"), false],
    ["not an object", "ECONNREFUSED", false],
  ])("%s", (_name, error, want) => {
    expect(isConnectionNotEstablished(error)).toBe(want);
  });
});
