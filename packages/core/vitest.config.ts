import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results/results.json" },
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
