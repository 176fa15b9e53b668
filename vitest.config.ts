import { defineConfig } from "vitest/config";
import { jsonReporter } from "./vitest.shared.js";

// Repository-level tests: the specs, the codegen and the scripts (each package has its own config).
export default defineConfig({
  test: {
    include: ["scripts/test/**/*.test.ts"],
    testTimeout: 60_000,
    reporters: ["default", jsonReporter],
    outputFile: { json: ".vitest-results/results.json" },
  },
});
