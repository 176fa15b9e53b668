import { defineConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.shared.js";

// One file at a time: the multi-process test measures how much of a budget 8 processes use.
export default defineConfig({
  ...packageTestConfig,
  test: { ...packageTestConfig.test, fileParallelism: false },
});
