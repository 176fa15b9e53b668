import { describe, expect, it } from "vitest";
import {
  ApiClientError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../../src/index.js";
import { useTestServer, type ScriptedResponse } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

const server = useTestServer();

async function failWith(script: ScriptedResponse, id = "a"): Promise<ApiError> {
  server.enqueue(script);
  const api = testApi(server.url, { maxRetries: 0 });
  const error = await rejection(api.request("getItem", { path: { id } }));
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("non-2xx responses become typed errors", () => {
  it.each<[number, abstract new (...args: never[]) => ApiError, unknown, string]>([
    [
      400,
      BadRequestError,
      { error: "count must be positive" },
      "400 Bad Request: count must be positive",
    ],
    [401, AuthenticationError, { message: "invalid token" }, "401 Unauthorized: invalid token"],
    [
      403,
      PermissionDeniedError,
      "forbidden for this team",
      "403 Forbidden: forbidden for this team",
    ],
    [404, NotFoundError, { error: "database not found" }, "404 Not Found: database not found"],
    [409, ConflictError, { error: "name taken", message: "ignored" }, "409 Conflict: name taken"],
    [
      422,
      UnprocessableEntityError,
      { message: "bad region" },
      "422 Unprocessable Entity: bad region",
    ],
    [429, RateLimitError, { error: "slow down" }, "429 Too Many Requests: slow down"],
    [500, InternalServerError, { error: "boom" }, "500 Internal Server Error: boom"],
    [502, InternalServerError, "upstream died", "502 Bad Gateway: upstream died"],
    [599, InternalServerError, undefined, "599"],
    [418, ApiError, { detail: "teapot" }, '418: {"detail":"teapot"}'],
  ])("%i → %o with the server's message", async (status, ErrorClass, body, prefix) => {
    const error = await failWith({ status, body, headers: { "x-should-retry": "false" } });
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error.constructor).toBe(ErrorClass);
    expect(error.name).toBe(ErrorClass.name);
    expect(error.status).toBe(status);
    expect(error.method).toBe("GET");
    expect(error.url).toBe(`${server.url}/items/a`);
    expect(error.message).toBe(`${prefix} (GET ${server.url}/items/a)`);
    expect(error.body).toEqual(body);
  });

  it("builds the documented message shape", async () => {
    const error = await failWith({ status: 404, body: { error: "database not found" } }, "x y");
    expect(error.message).toBe(`404 Not Found: database not found (GET ${server.url}/items/x%20y)`);
  });

  it("reads a nested error.message", async () => {
    const error = await failWith({ status: 400, body: { error: { message: "nested reason" } } });
    expect(error.message).toMatch(/^400 Bad Request: nested reason \(/);
  });

  it("truncates a huge text body in the message but keeps it whole on body", async () => {
    const text = "e".repeat(5000);
    const error = await failWith({ status: 400, body: text });
    expect(error.message.length).toBeLessThan(700);
    expect(error.body).toBe(text);
  });

  it.each([
    ["x-request-id", "req_1"],
    ["request-id", "req_2"],
    ["upstash-request-id", "req_3"],
  ])("takes the request id from %s", async (header, value) => {
    const error = await failWith({ status: 404, headers: { [header]: value } });
    expect(error.requestId).toBe(value);
    expect(error.toJSON()).toMatchObject({ requestId: value, status: 404 });
  });

  it("has no request id when none is sent", async () => {
    expect((await failWith({ status: 404 })).requestId).toBeUndefined();
  });

  it("RateLimitError carries Retry-After and the rate-limit headers", async () => {
    const error = await failWith({
      status: 429,
      headers: {
        "x-should-retry": "false",
        "retry-after": "2",
        "RateLimit-Limit": "100",
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": "1700000000",
        "Burst-RateLimit-Limit": "10",
        "Burst-RateLimit-Remaining": "0",
        "Burst-RateLimit-Reset": "1",
      },
    });
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.retryAfterMs).toBe(2000);
    expect(limited.rateLimit).toEqual({
      limit: 100,
      remaining: 0,
      reset: 1_700_000_000,
      burstLimit: 10,
      burstRemaining: 0,
      burstReset: 1,
    });
    expect(limited.toJSON()).toMatchObject({ retryAfterMs: 2000, rateLimit: { limit: 100 } });
  });

  it("RateLimitError without headers has neither value", async () => {
    const error = (await failWith({
      status: 429,
      headers: { "x-should-retry": "false" },
    })) as RateLimitError;
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.rateLimit).toBeUndefined();
  });
});
