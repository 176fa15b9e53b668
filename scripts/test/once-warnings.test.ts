// `pnpm test` prints each repeated warning once: vitest's type-testing notice (every suite with type
// tests, on every Node version) and Node's NODE_TLS_REJECT_UNAUTHORIZED warning, with or without
// turbo's prefix and colours; every other line, repeated or not, passes.
import { describe, expect, it } from "vitest";
import { onceWarnings } from "../lib/once-warnings.mjs";

const VITEST = [
  "\u001b[33mTesting types with tsc and vue-tsc is an experimental feature.",
  "Breaking changes might not follow SemVer, please pin Vitest's version when using it.\u001b[39m",
];
const TLS = [
  "(node:4242) Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0' makes TLS connections and HTTPS requests insecure by disabling certificate verification.",
  "(Use `node --trace-warnings ...` to show where the warning was created)",
];

describe("onceWarnings", () => {
  it("passes each repeated warning once, and every other line each time", () => {
    const keep = onceWarnings();
    const output = [
      ...VITEST.map((l) => `@api-clients/core:test: ${l}`),
      " ✓ test/a.test.ts (3 tests)",
      ...TLS,
      ...VITEST.map((l) => `@api-clients/logs-client:test: ${l}`),
      " ✓ test/a.test.ts (3 tests)",
      ...VITEST,
      ...TLS.map((l) => l.replace("4242", "4343")),
    ];
    expect(output.filter(keep)).toEqual([
      ...VITEST.map((l) => `@api-clients/core:test: ${l}`),
      " ✓ test/a.test.ts (3 tests)",
      ...TLS,
      " ✓ test/a.test.ts (3 tests)",
    ]);
  });

  it("starts afresh for each run", () => {
    expect(VITEST.filter(onceWarnings())).toEqual(VITEST);
    expect(VITEST.filter(onceWarnings())).toEqual(VITEST);
  });
});
