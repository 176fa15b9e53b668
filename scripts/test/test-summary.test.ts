// The `N passed, N failed` line of `pnpm test` (scripts/lib/test-summary.mjs) counts every failure
// vitest reports: a real vitest run over a small project with a failed test, a failing beforeAll, a
// beforeAll that times out, a file that fails to load and an unhandled rejection; and crafted runs for
// what a report cannot show (a missing report, a non-zero exit with nothing failed).
//
//   pnpm exec vitest run scripts/test/test-summary.test.ts
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/pack.mjs";
import { countReport, summarise } from "../lib/test-summary.mjs";
import { jsonReporter } from "../../vitest.shared.js";

const FILES: Record<string, string> = {
  "passes.test.mjs": `import { it } from "vitest"; it("one", () => {}); it("two", () => {});`,
  "fails.test.mjs": `import { expect, it } from "vitest";
    it("passes", () => {}); it("fails", () => expect(1).toBe(2));`,
  "hook.test.mjs": `import { beforeAll, describe, it } from "vitest";
    describe("setup", () => {
      beforeAll(() => { throw new Error("setup failed"); });
      it("skipped by vitest", () => {});
    });
    it("outside the describe", () => {});`,
  "hook-timeout.test.mjs": `import { beforeAll, it } from "vitest";
    beforeAll(() => new Promise(() => {}), 50);
    it("never runs", () => {});`,
  "load.test.mjs": `import "./no-such-module.mjs"; import { it } from "vitest"; it("x", () => {});`,
  "unhandled.test.mjs": `import { it } from "vitest";
    it("ends before its promise rejects", () => { Promise.reject(new Error("nobody listens")); });`,
};

let project = "";
let vitest: { status: number | null; output: string };
const report = () => join(project, ".vitest-results", "results.json");

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "test-summary-"));
  mkdirSync(join(project, "test"));
  for (const [name, text] of Object.entries(FILES))
    writeFileSync(join(project, "test", name), text);
  const config = {
    test: {
      include: ["test/**/*.test.mjs"],
      reporters: ["default", jsonReporter],
      outputFile: { json: ".vitest-results/results.json" },
    },
  };
  writeFileSync(join(project, "vitest.config.mjs"), `export default ${JSON.stringify(config)};\n`);
  const result = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "node_modules", "vitest", "vitest.mjs"), "run"],
    { cwd: project, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", CI: "true" } },
  );
  vitest = { status: result.status, output: `${result.stdout}${result.stderr}` };
}, 60_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the test summary (scripts/lib/test-summary.mjs)", () => {
  it("counts a failed test, two failed hooks, a file that fails to load and an unhandled error", () => {
    expect(vitest.status, vitest.output).toBe(1);
    const summary = summarise(
      [{ what: "tiny", exitCode: vitest.status, reports: [report()] }],
      project,
    );
    // passes.test.mjs 2, fails.test.mjs 1, hook.test.mjs 1 (outside the describe), unhandled 1.
    expect(summary.passed).toBe(5);
    expect(summary.failed).toBe(5);
    expect(summary.problems.join("\n")).toMatch(/test\/hook\.test\.mjs failed outside its tests/);
    expect(summary.problems.join("\n")).toMatch(
      /test\/hook-timeout\.test\.mjs failed outside its tests/,
    );
    expect(summary.problems.join("\n")).toMatch(/test\/load\.test\.mjs failed to load.*no-such/);
    expect(summary.problems.join("\n")).toMatch(/tiny: 1 unhandled error/);
    // A failed test is named with its first message line, so the end of a long log says what failed.
    expect(summary.problems).toContain(
      "tiny: test/fails.test.mjs > fails failed: AssertionError: expected 1 to be 2 // Object.is equality",
    );
  });

  it("counts only what failed: the same project without its failing files", () => {
    const rerun = spawnSync(
      process.execPath,
      [join(REPO_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "test/passes.test.mjs"],
      { cwd: project, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", CI: "true" } },
    );
    expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
    const summary = summarise([{ what: "tiny", exitCode: 0, reports: [report()] }], project);
    expect(summary).toEqual({ passed: 2, failed: 0, problems: [] });
  });

  const clean = {
    numPassedTests: 3,
    numFailedTests: 0,
    success: true,
    numUnhandledErrors: 0,
    testResults: [],
  };

  it("counts a run that exited non-zero with a clean report as one failure", () => {
    const file = join(project, "clean.json");
    writeFileSync(file, JSON.stringify(clean));
    expect(summarise([{ what: "ok", exitCode: 0, reports: [file] }], project).failed).toBe(0);
    const failed = summarise([{ what: "turbo", exitCode: 1, reports: [file] }], project);
    expect(failed).toMatchObject({ passed: 3, failed: 1 });
    expect(failed.problems).toEqual([
      "turbo: exited with 1, yet its reports show no failure (see above)",
    ]);
    const killed = summarise([{ what: "vitest", exitCode: "SIGKILL", reports: [file] }], project);
    expect(killed.failed).toBe(1);
  });

  it("counts a missing or unreadable report as one failure each", () => {
    const broken = join(project, "broken.json");
    writeFileSync(broken, "{");
    const summary = summarise(
      [{ what: "run", exitCode: 1, reports: [join(project, "missing.json"), broken] }],
      project,
    );
    expect(summary.failed).toBe(2);
    expect(summary.problems[0]).toMatch(/missing\.json missing: the suite did not run to the end/);
    expect(summary.problems[1]).toMatch(/broken\.json unreadable/);
  });

  it("counts a report that says it failed, with no failed test, as one failure", () => {
    expect(countReport({ ...clean, success: false }).failed).toBe(1);
    expect(countReport(clean).failed).toBe(0);
  });
});
