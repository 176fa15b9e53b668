import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProjectInlineConfiguration, ViteUserConfig } from "vitest/config";

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

/** The test files under `dir` (a package's `test/`) that start an emulator. */
function emulatorTests(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => readFileSync(join(dir, f), "utf8").includes('from "@api-clients/emulator"'))
    .map((f) => `test/${f.split("\\").join("/")}`);
}

/**
 * A package's tests in two vitest projects: all of them as written ("http"), then once more those that
 * start an emulator, with no socket ("emulator.fetch"): `startEmulator()` answers through the
 * emulator's `fetch` handler instead of its HTTP server (scripts/lib/emulator-over-fetch.ts).
 */
export function withEmulatorFetchProject(packageDir: string): ViteUserConfig {
  const { include, typecheck, testTimeout, ...shared } = packageTestConfig.test;
  const overFetch: TestProjectInlineConfiguration = {
    test: {
      name: "emulator.fetch",
      root: packageDir,
      testTimeout,
      include: emulatorTests(join(packageDir, "test")),
      setupFiles: [fileURLToPath(new URL("./scripts/lib/emulator-over-fetch.ts", import.meta.url))],
    },
  };
  return {
    test: {
      ...shared,
      projects: [
        { test: { name: "http", root: packageDir, include, typecheck, testTimeout } },
        overFetch,
      ],
    },
  };
}
