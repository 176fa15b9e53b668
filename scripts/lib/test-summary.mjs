// The `N passed, N failed` line of `pnpm test` (scripts/test.mjs), summed from vitest's JSON reports
// (written by scripts/lib/vitest-json-reporter.mjs), with each failure named. Every failure vitest reports counts: a failed test,
// a test file that failed outside its tests (a failed beforeAll/afterAll hook, whose tests vitest then
// marks skipped; a file that fails to load), an unhandled error, a missing report, and a vitest that
// exited non-zero although its reports show no failure. So the line never says 0 failed when a run failed.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

/**
 * Counts one report.
 * @param {any} report vitest's JSON report
 * @param {string} [root] file names are shown relative to it
 * @returns {{ passed: number, failed: number, problems: string[] }}
 */
export function countReport(report, root = process.cwd()) {
  let failed = report.numFailedTests ?? 0;
  const problems = [];
  for (const file of report.testResults ?? []) {
    if (file.status !== "failed") continue;
    const failedTests = file.assertionResults.filter((test) => test.status === "failed");
    // Named here too, so that the last lines of a long log say which tests failed and why.
    for (const test of failedTests) {
      const why = String(test.failureMessages?.[0] ?? "")
        .split("\n")[0]
        .slice(0, 300);
      problems.push(
        `${relative(root, file.name)} > ${test.fullName} failed${why ? `: ${why}` : ""}`,
      );
    }
    if (failedTests.length > 0) continue;
    failed += 1;
    const why =
      file.assertionResults.length === 0
        ? "failed to load, or has no test"
        : "failed outside its tests (a beforeAll/afterAll hook: its tests were skipped)";
    problems.push(`${relative(root, file.name)} ${why}${file.message ? `: ${file.message}` : ""}`);
  }
  const unhandled = report.numUnhandledErrors ?? 0;
  if (unhandled > 0) {
    failed += unhandled;
    problems.push(`${unhandled} unhandled error(s) outside any test (see "Errors" above)`);
  }
  if (report.success === false && failed === 0) {
    failed = 1;
    problems.push("vitest marked the run failed, with no failed test");
  }
  return { passed: report.numPassedTests ?? 0, failed, problems };
}

/**
 * Sums the runs of one `pnpm test`.
 * @param {{ what: string, exitCode: number | string | null, reports: string[] }[]} runs each vitest (or turbo)
 *   command, how it exited (its code, or the signal that ended it), and the report files it should
 *   have written
 * @param {string} [root]
 * @returns {{ passed: number, failed: number, problems: string[] }}
 */
export function summarise(runs, root = process.cwd()) {
  let passed = 0;
  let failed = 0;
  const problems = [];
  for (const { what, exitCode, reports } of runs) {
    let runFailed = 0;
    for (const file of reports) {
      const name = relative(root, file);
      let report;
      try {
        report = JSON.parse(readFileSync(file, "utf8"));
      } catch (error) {
        const why = existsSync(file) ? `unreadable (${error.message})` : "missing";
        runFailed += 1;
        problems.push(`${what}: report ${name} ${why}: the suite did not run to the end`);
        continue;
      }
      const counted = countReport(report, root);
      passed += counted.passed;
      runFailed += counted.failed;
      problems.push(...counted.problems.map((problem) => `${what}: ${problem}`));
    }
    if (exitCode !== 0 && runFailed === 0) {
      runFailed = 1;
      problems.push(
        `${what}: exited with ${exitCode}, yet its reports show no failure (see above)`,
      );
    }
    failed += runFailed;
  }
  return { passed, failed, problems };
}
