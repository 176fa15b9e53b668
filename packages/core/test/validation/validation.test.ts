import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/index.js";
import {
  rejectUnknownKeys,
  requireBoolean,
  requireInteger,
  requireNonEmptyString,
  requireObject,
  requireOneOf,
  requirePathSegment,
} from "../../src/internal/validation.js";

function thrown(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error("expected a ValidationError");
}

describe("validation helpers", () => {
  it.each<[string, () => unknown, string]>([
    ["empty string", () => requireNonEmptyString("", "name"), "name: must be a non-empty string"],
    [
      "number as string",
      () => requireNonEmptyString(1, "name"),
      "name: must be a non-empty string",
    ],
    ["dot segment", () => requirePathSegment(".", "id"), 'id: must not be "." or ".."'],
    ["dot-dot segment", () => requirePathSegment("..", "id"), 'id: must not be "." or ".."'],
    ["empty segment", () => requirePathSegment("", "id"), "id: must be a non-empty string"],
    [
      "unknown choice",
      () => requireOneOf("us", "region", ["eu-west-1", "us-east-1"]),
      'region: must be one of "eu-west-1", "us-east-1"',
    ],
    [
      "integer out of range",
      () => requireInteger(1001, "count", { min: 1, max: 1000 }),
      "count: must be an integer from 1 to 1000",
    ],
    [
      "fraction",
      () => requireInteger(1.5, "count", { min: 1, max: 1000 }),
      "count: must be an integer from 1 to 1000",
    ],
    ["string integer", () => requireInteger("5", "count"), "count: must be an integer"],
    ["below min", () => requireInteger(-1, "n", { min: 0 }), "n: must be an integer >= 0"],
    ["above max", () => requireInteger(11, "n", { max: 10 }), "n: must be an integer <= 10"],
    ["boolean", () => requireBoolean("true", "tls"), "tls: must be a boolean"],
    ["null object", () => requireObject(null, "params"), "params: must be an object"],
    ["array object", () => requireObject([], "params"), "params: must be a plain object"],
    ["Date object", () => requireObject(new Date(), "params"), "params: must be a plain object"],
    [
      "unknown key",
      () => rejectUnknownKeys({ messageId: "a", mesageId: "b" }, "params", ["messageId", "state"]),
      'params.mesageId: is not a known option (expected one of "messageId", "state")',
    ],
  ])("rejects %s", (_name, fn, message) => {
    const error = thrown(fn);
    expect(error.message).toBe(message);
    expect(`${error.field}: ${error.rule}`).toBe(message);
  });

  it("returns valid values unchanged", () => {
    expect(requireNonEmptyString("a", "f")).toBe("a");
    expect(requirePathSegment("../teams", "id")).toBe("../teams");
    expect(requireOneOf("us-east-1", "region", ["eu-west-1", "us-east-1"] as const)).toBe(
      "us-east-1",
    );
    expect(requireInteger(1000, "count", { min: 1, max: 1000 })).toBe(1000);
    expect(requireBoolean(false, "tls")).toBe(false);
    const params = { a: 1 };
    expect(requireObject(params, "params")).toBe(params);
    expect(requireObject(Object.create(null), "params")).toEqual({});
    expect(rejectUnknownKeys({ a: 1 }, "params", ["a", "b"])).toBeUndefined();
  });
});
