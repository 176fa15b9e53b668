import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

describe("README examples", () => {
  it("every ```ts block of every README type-checks against the packages' sources", () => {
    const result = spawnSync(process.execPath, ["scripts/check-examples.mjs"], {
      cwd: repo,
      encoding: "utf8",
    });
    expect(result.stdout + result.stderr).toMatch(
      /check:examples: \d+ README code blocks type-check/,
    );
    expect(Number(/(\d+) README code blocks/.exec(result.stdout)?.[1])).toBeGreaterThanOrEqual(12);
    expect(result.status).toBe(0);
  });
});
