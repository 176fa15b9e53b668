import { defineConfig, mergeConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.shared.js";

// Each test runs the CLI several times, a Node process each (0.5–1 s apiece on a busy 2-core machine):
// a longer limit than the packages' 20 s, so that a loaded machine does not time them out.
export default mergeConfig(
  defineConfig(packageTestConfig),
  defineConfig({ test: { testTimeout: 60_000 } }),
);
