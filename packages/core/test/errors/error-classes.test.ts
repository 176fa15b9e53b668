import { describe, expect, it } from "vitest";
import * as core from "../../src/index.js";
import {
  AbortError,
  ApiClientError,
  ApiError,
  ConnectionError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "../../src/index.js";

const init = (status: number, body: unknown = undefined) => ({
  status,
  headers: new Headers(),
  body,
  method: "DELETE",
  url: "https://api.example.com/v2/x",
});

describe("ApiError.from", () => {
  it.each<[number, string]>([
    [400, "BadRequestError"],
    [401, "AuthenticationError"],
    [403, "PermissionDeniedError"],
    [404, "NotFoundError"],
    [409, "ConflictError"],
    [422, "UnprocessableEntityError"],
    [429, "RateLimitError"],
    [500, "InternalServerError"],
    [503, "InternalServerError"],
    [402, "ApiError"],
    [451, "ApiError"],
  ])("%i → %s", (status, name) => {
    const error = ApiError.from(init(status));
    expect(error.name).toBe(name);
    expect(error.constructor).toBe(core[name as keyof typeof core]);
  });
});

describe("hierarchy and instanceof", () => {
  it("keeps subclass → superclass relations", () => {
    const notFound = ApiError.from(init(404));
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toBeInstanceOf(ApiError);
    expect(notFound).toBeInstanceOf(ApiClientError);
    expect(notFound).toBeInstanceOf(Error);
    expect(notFound).not.toBeInstanceOf(RateLimitError);
    expect(notFound).not.toBeInstanceOf(ConnectionError);
    const timeout = new TimeoutError({ timeoutMs: 5 });
    expect(timeout).toBeInstanceOf(ConnectionError);
    expect(timeout).toBeInstanceOf(ApiClientError);
    expect(new ConnectionError("x")).not.toBeInstanceOf(TimeoutError);
    const invalid = new InvalidResponseError({ ...init(200, "<html>"), reason: "not JSON" });
    expect(invalid).toBeInstanceOf(ApiError);
    expect(new ValidationError("a", "b")).not.toBeInstanceOf(ApiError);
  });

  it("recognises errors from another copy of the package by their brand", async () => {
    const path = "../../src/errors.js?second-copy";
    const copy = (await import(/* @vite-ignore */ path)) as typeof import("../../src/errors.js");
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const foreign = copy.ApiError.from(init(404));
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(ApiError);
    expect(foreign).toBeInstanceOf(ApiClientError);
    expect(foreign).not.toBeInstanceOf(RateLimitError);
    expect(ApiError.from(init(429))).toBeInstanceOf(copy.RateLimitError);
    expect(new TimeoutError({ timeoutMs: 1 })).toBeInstanceOf(copy.ConnectionError);
  });

  it("checks the brand chain, not the prototype", () => {
    const branded = {
      [Symbol.for("api-clients.error.ApiClientError")]: true,
      [Symbol.for("api-clients.error.ApiError")]: true,
    };
    expect(branded instanceof ApiError).toBe(true);
    expect(branded instanceof ApiClientError).toBe(true);
    expect(branded instanceof NotFoundError).toBe(false);
    expect({} instanceof ApiClientError).toBe(false);
    expect((null as unknown) instanceof ApiClientError).toBe(false);
    expect(new Error("x") instanceof ApiClientError).toBe(false);
  });

  it("a user subclass keeps ordinary instanceof", () => {
    class MissingWidget extends NotFoundError {}
    const mine = new MissingWidget(init(404));
    expect(mine).toBeInstanceOf(NotFoundError);
    expect(mine).toBeInstanceOf(MissingWidget);
    expect(ApiError.from(init(404))).not.toBeInstanceOf(MissingWidget);
  });
});

describe("messages and toJSON", () => {
  it("ValidationError names field and rule", () => {
    const error = new ValidationError("count", "must be an integer from 1 to 1000");
    expect(error.message).toBe("count: must be an integer from 1 to 1000");
    expect(error.toJSON()).toEqual({
      name: "ValidationError",
      message: "count: must be an integer from 1 to 1000",
      field: "count",
      rule: "must be an integer from 1 to 1000",
    });
  });

  it("ApiError.toJSON has the documented fields and no headers or body", () => {
    const error = ApiError.from({
      ...init(500, { error: "boom" }),
      headers: new Headers({ "x-request-id": "r1", "set-cookie": "s=1" }),
    });
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.toJSON()).toEqual({
      name: "InternalServerError",
      message: "500 Internal Server Error: boom (DELETE https://api.example.com/v2/x)",
      status: 500,
      requestId: "r1",
      method: "DELETE",
      url: "https://api.example.com/v2/x",
      attempts: 1,
    });
  });

  it("InvalidResponseError says what is wrong and shows a short excerpt", () => {
    const error = new InvalidResponseError({
      ...init(200, `<html>${"x".repeat(1000)}</html>`),
      method: "GET",
      reason: "response body is not valid JSON",
    });
    expect(error.message).toMatch(/^200 OK: response body is not valid JSON: <html>x+…/);
    expect(error.message.length).toBeLessThan(320);
  });

  it("TimeoutError mentions the limit", () => {
    const error = new TimeoutError({ timeoutMs: 250, method: "GET", url: "https://a.example/x" });
    expect(error.message).toBe("Request timed out after 250 ms (GET https://a.example/x)");
    expect(error.toJSON()).toMatchObject({ name: "TimeoutError", timeoutMs: 250, method: "GET" });
  });

  it("strips user-info credentials from URLs", () => {
    const error = ApiError.from({ ...init(404), url: "https://user:pa55@api.example.com/x" });
    expect(error.url).toBe("https://api.example.com/x");
    expect(error.message).not.toContain("pa55");
  });

  it("says how many attempts were made when there was more than one", () => {
    expect(ApiError.from({ ...init(503, { error: "busy" }), attempts: 3 }).message).toBe(
      "503 Service Unavailable: busy (DELETE https://api.example.com/v2/x), after 3 attempts",
    );
    expect(ApiError.from({ ...init(503), attempts: 1 }).message).not.toContain("after");
    const refused = new ConnectionError("Connection failed (GET https://a.example/x)", {
      attempts: 2,
    });
    expect(refused.message).toBe("Connection failed (GET https://a.example/x), after 2 attempts");
    expect(refused.toJSON()).toMatchObject({ attempts: 2 });
  });

  it("AbortError keeps the signal's reason as cause and says it", () => {
    const reason = new Error("user left");
    const error = new AbortError(reason);
    expect(error.message).toBe("Request aborted: user left");
    expect(error.cause).toBe(reason);
    expect(error.name).toBe("AbortError");
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(new AbortError(undefined).message).toBe("Request aborted");
  });
});
