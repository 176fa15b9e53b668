import { describe, expect, it } from "vitest";
import { basicAuthorization, bearerAuthorization } from "../../src/internal.js";

describe("authorization header values", () => {
  it.each([
    ["ascii", "ops@example.com", "key", "ops@example.com:key"],
    ["non-ASCII (UTF-8)", "jürgen@example.com", "clé-🔑", "jürgen@example.com:clé-🔑"],
    ["a colon in the password", "a@b.c", "x:y", "a@b.c:x:y"],
  ])("Basic with %s credentials is base64 of the UTF-8 bytes", (_, user, password, plain) => {
    const value = basicAuthorization(user, password);
    expect(value).toBe(`Basic ${Buffer.from(plain, "utf8").toString("base64")}`);
  });

  it("Bearer carries the token as is", () => {
    expect(bearerAuthorization("tok_1")).toBe("Bearer tok_1");
  });
});
