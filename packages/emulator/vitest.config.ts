import { defineConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.shared.js";

const { include, typecheck, testTimeout, ...shared } = packageTestConfig.test;

// Two projects: the package's tests, and "vitest-kit", which uses `@api-clients/emulator/vitest` as a
// consumer does (a global setup starting one emulator, useEmulator() in the files).
export default defineConfig({
  test: {
    ...shared,
    projects: [
      {
        test: {
          name: "emulator",
          include,
          exclude: ["test/vitest-kit/**"],
          typecheck,
          testTimeout,
        },
      },
      {
        test: {
          name: "vitest-kit",
          include: ["test/vitest-kit/**/*.test.ts"],
          globalSetup: ["test/vitest-kit/emulator.setup.ts"],
          fileParallelism: false,
          testTimeout,
        },
      },
    ],
  },
});
