#!/usr/bin/env node
// Runs every test suite (the packages' vitest suites through turbo, then the repository-level suite)
// and ends with one line `N passed, N failed` summed from vitest's JSON reports.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const extraArgs = process.argv.slice(2);

/** Every folder whose vitest run writes `.vitest-results/results.json`. */
function suiteDirs() {
  const packages = readdirSync(join(root, "packages")).map((name) => join(root, "packages", name));
  return [root, ...packages.filter((dir) => existsSync(join(dir, "vitest.config.ts")))];
}

function resultsFile(dir) {
  return join(dir, ".vitest-results", "results.json");
}

function run(command, args) {
  const { status } = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  return status === 0;
}

for (const dir of suiteDirs()) rmSync(resultsFile(dir), { force: true });

const turboOk = run("pnpm", ["exec", "turbo", "run", "test", "--continue", ...extraArgs]);
const repoOk = run("pnpm", ["exec", "vitest", "run", "--config", "vitest.config.ts"]);

let passed = 0;
let failed = 0;
for (const dir of suiteDirs()) {
  const file = resultsFile(dir);
  if (!existsSync(file)) {
    console.error(`test: no results from ${dir} (the suite did not run to the end)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A test file that fails to load has no test results of its own: count it once.
  for (const suite of report.testResults) {
    if (suite.status === "failed" && suite.assertionResults.length === 0) failed += 1;
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = turboOk && repoOk && failed === 0 ? 0 : 1;
