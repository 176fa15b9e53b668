// The client re-exports everything `@api-clients/core` exports (`export * from "@api-clients/core"`):
// every error class, every default and `createRateLimiter`, as the very same values.
import * as core from "@api-clients/core";
import { describe, expect, it } from "vitest";
import * as client from "../../src/index.js";

describe("the client's re-exports of @api-clients/core", () => {
  it("every runtime name of core, the same value", () => {
    const names = Object.keys(core);
    expect(names).toContain("DEFAULT_DEADLINE_MS");
    expect(names).toContain("createRateLimiter");
    for (const name of names) {
      expect((client as Record<string, unknown>)[name], name).toBe(
        (core as Record<string, unknown>)[name],
      );
    }
  });
});
