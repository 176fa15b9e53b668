import { fileURLToPath } from "node:url";
import type { ViteUserConfig } from "vitest/config";

/** vitest's JSON reporter, plus the count of unhandled errors its report leaves out. */
export const jsonReporter = fileURLToPath(
  new URL("./scripts/lib/vitest-json-reporter.mjs", import.meta.url),
);

/**
 * The vitest settings every package shares: tests in `test/`, type tests in `*.test-d.ts`, and a JSON
 * report in `.vitest-results/` that `pnpm test` sums into its `N passed, N failed` line.
 */
export const packageTestConfig = {
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    reporters: ["default", jsonReporter],
    outputFile: { json: ".vitest-results/results.json" },
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
} satisfies ViteUserConfig;
