// `pnpm start` shows its build (scripts/build-progress.mjs): a line when it starts, one per package as it
// starts building, errors as turbo prints them, and a closing line; pnpm's echo of each script, blank
// lines, cache hits and turbo's banner are dropped. The lines below are turbo 2's own.
//
//   pnpm exec vitest run scripts/test/build-progress.test.ts   (after `pnpm build`: all cached)
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { progressLine } from "../build-progress.mjs";
import { REPO_ROOT } from "../lib/pack.mjs";

describe("pnpm start's build progress", () => {
  it.each([
    [
      "@api-clients/core:build: cache miss, executing 56666a560686d5a4",
      { print: "  building @api-clients/core", started: true },
    ],
    [
      "@api-clients/logs-client:generate: cache miss, executing 272e40426a3f5282",
      { print: "  generate @api-clients/logs-client", started: true },
    ],
    ["@api-clients/core:build: cache hit, suppressing logs 56666a560686d5a4", { cached: true }],
    ["@api-clients/core:build: > @api-clients/core@0.1.0 build /work/packages/core", {}],
    ["@api-clients/core:build: > tsc -p tsconfig.build.json", {}],
    ["@api-clients/core:build: ", {}],
    [
      "@api-clients/core:build: src/index.ts(3,7): error TS2322: Type 'string' is not assignable",
      {
        print:
          "@api-clients/core:build: src/index.ts(3,7): error TS2322: Type 'string' is not assignable",
      },
    ],
    ["   • Running build in 8 packages", {}],
    [" Tasks:    8 successful, 8 total", {}],
    ["  Time:    2m55.524s ", {}],
    ["", {}],
    ["ERROR  run failed: command  exited (2)", { print: "ERROR  run failed: command  exited (2)" }],
  ])("%j", (line, want) => {
    expect(progressLine(line)).toEqual(want);
  });

  it("a cached build says so at once and closes with the count", () => {
    const result = spawnSync(
      process.execPath,
      ["scripts/build-progress.mjs", "--filter=@api-clients/core"],
      { cwd: REPO_ROOT, encoding: "utf8", timeout: 170_000 },
    );
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^build: building the packages/);
    expect(lines.at(-1)).toMatch(/^build: done, \d+ tasks? \(\d+ cached\) in \d+\.\d s$/);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
