#!/usr/bin/env node
// `pnpm test`: runs every test suite and ends with one line `N passed, N failed`, summed from vitest's
// JSON reports: the packages' suites through turbo, the repository-level suite (specs, codegen,
// scripts), and, for each Node major in TEST_NODE_VERSIONS (default "22 24"; set it empty to skip), the
// runtime, client and emulator suites again on that Node (binaries from the `node` npm package,
// installed on demand into .tools/).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const MATRIX_PACKAGES = ["core", "logs-client", "management-client", "emulator"];
const extraNodes = (process.env.TEST_NODE_VERSIONS ?? "22 24").split(/[\s,]+/).filter(Boolean);

/** Every folder whose vitest runs write reports into `.vitest-results/`. */
function suiteDirs() {
  const dirs = [root];
  for (const parent of ["packages", "bench"]) {
    const base = join(root, parent);
    if (!existsSync(base)) continue;
    if (existsSync(join(base, "vitest.config.ts"))) dirs.push(base);
    else for (const name of readdirSync(base)) dirs.push(join(base, name));
  }
  return dirs.filter((dir) => existsSync(join(dir, "vitest.config.ts")));
}

function run(command, args, cwd = root) {
  const { status } = spawnSync(command, args, { cwd, stdio: "inherit", env: process.env });
  return status === 0;
}

/** The `node` binary of a Node major version, installed from the npm registry on first use. */
function nodeBinary(major) {
  const dir = join(root, ".tools", `node-${major}`);
  const bin = join(dir, "node_modules", "node", "bin", "node");
  if (!existsSync(bin)) {
    run("npm", [
      "install",
      "--prefix",
      dir,
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `node@${major}`,
    ]);
  }
  return bin;
}

for (const dir of suiteDirs())
  rmSync(join(dir, ".vitest-results"), { recursive: true, force: true });

// Two suites at a time on a 2-core machine: the timing-sensitive tests (timeouts, stalls) stay honest.
let ok = run("pnpm", [
  "exec",
  "turbo",
  "run",
  "test",
  "--continue",
  "--concurrency=2",
  ...process.argv.slice(2),
]);
ok = run("pnpm", ["exec", "vitest", "run", "--config", "vitest.config.ts"]) && ok;
for (const major of extraNodes) {
  const node = nodeBinary(major);
  for (const pkg of MATRIX_PACKAGES) {
    console.log(`\n=== @api-clients/${pkg} on Node ${major}`);
    const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
    const args = [vitest, "run", `--outputFile.json=.vitest-results/node-${major}.json`];
    ok = run(node, args, join(root, "packages", pkg)) && ok;
  }
}

let passed = 0;
let failed = 0;
for (const dir of suiteDirs()) {
  const resultsDir = join(dir, ".vitest-results");
  const reports = existsSync(resultsDir)
    ? readdirSync(resultsDir).filter((f) => f.endsWith(".json"))
    : [];
  if (reports.length === 0) {
    console.error(`test: no results from ${dir} (the suite did not run to the end)`);
    failed += 1;
  }
  for (const file of reports) {
    const report = JSON.parse(readFileSync(join(resultsDir, file), "utf8"));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    // A test file that fails to load has no test results of its own: count it once.
    for (const suite of report.testResults) {
      if (suite.status === "failed" && suite.assertionResults.length === 0) failed += 1;
    }
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = ok && failed === 0 ? 0 : 1;
