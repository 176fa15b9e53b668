import { defineConfig } from "vitest/config";
import { jsonReporter } from "./vitest.shared.js";

// Repository-level tests: the specs, the codegen and the scripts (each package has its own config).
export default defineConfig({
  test: {
    include: ["scripts/test/**/*.test.ts"],
    // The tests run real commands (codegen, tsc, pnpm): the slowest takes 40 s on an idle 2-core
    // machine, and several times that on a busy one. A limit, not a speed check (that is `pnpm bench`).
    testTimeout: 180_000,
    reporters: ["default", jsonReporter],
    outputFile: { json: ".vitest-results/results.json" },
  },
});
