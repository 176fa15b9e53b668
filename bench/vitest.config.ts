import { defineConfig, mergeConfig } from "vitest/config";
import { packageTestConfig } from "../vitest.shared.js";

// The harness test starts servers and child processes: longer limits than the packages'.
export default mergeConfig(
  defineConfig(packageTestConfig),
  defineConfig({ test: { testTimeout: 300_000, hookTimeout: 120_000 } }),
);
