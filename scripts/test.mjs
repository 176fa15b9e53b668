#!/usr/bin/env node
// `pnpm test`: runs every test suite and ends with one line `N passed, N failed`, summed from vitest's
// JSON reports (scripts/lib/test-summary.mjs: failed tests, failed hooks, files that fail to load,
// unhandled errors, and any vitest that exited non-zero): the packages' suites through turbo, the
// repository-level suite (specs, codegen, scripts), and, for each Node major in TEST_NODE_VERSIONS
// (default "22 24"; set it empty to skip), the runtime, client, emulator and CLI suites again on that Node,
// two suites at a time with the repository suite, each line of their output after its suite's name
// (binaries from the `node` npm package, pinned in scripts/lib/runtime-tools.mjs, downloaded once per
// machine into the cache outside the clone and reused by every run and by the runtime test, bounded and
// retried by scripts/lib/tool-download.mjs, whose downloads share one budget for the whole run; a Node
// that cannot be downloaded counts as a failure, with the reason). Before the closing line, one line says
// what was downloaded and how long it took, or that nothing was.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarise } from "./lib/test-summary.mjs";
import { downloadSummary } from "./lib/tool-download.mjs";
import { nodeBinary } from "./lib/node-binary.mjs";
import { onceWarnings } from "./lib/once-warnings.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Longest suite first: the matrix runs two suites at a time.
const MATRIX_PACKAGES = ["cli", "logs-client", "emulator", "management-client", "core"];
// The memory-bound tests run once, on the Node that runs the package suites: their subject is how much
// heap our own code keeps (30–165 s each), not what a Node version changes; everything else runs again.
const MATRIX_EXCLUDE = ["**/*-memory.test.ts", "**/limits/memory.test.ts"];
const extraNodes = (process.env.TEST_NODE_VERSIONS ?? "22 24").split(/[\s,]+/).filter(Boolean);
const RESULTS = ".vitest-results";

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

const printOnce = onceWarnings();

/**
 * Copies a child's output stream line by line, each repeated warning once (`onceWarnings`), each line
 * after `label` (empty when the child runs alone).
 */
function forward(stream, to, label) {
  createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
    if (printOnce(line)) to.write(`${label}${line}\n`);
  });
}

/**
 * Runs a command with its output passed on (each repeated warning once, each line after `label`);
 * resolves to its exit code.
 */
function run(command, args, cwd = root, label = "") {
  return new Promise((resolve) => {
    const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env;
    const child = spawn(command, args, { cwd, stdio: ["inherit", "pipe", "pipe"], env });
    forward(child.stdout, process.stdout, label);
    forward(child.stderr, process.stderr, label);
    child.once("error", (error) => {
      console.error(`test: ${command}: ${error.message}`);
      resolve(-1);
    });
    // "close", not "exit": every line of its output is passed on first.
    child.once("close", (code, signal) => resolve(signal ? `${signal}` : code));
  });
}

// One download budget for this run and every process it starts (scripts/lib/tool-download.mjs).
const ledgerDir = mkdtempSync(join(tmpdir(), "test-downloads-"));
process.env.TOOL_DOWNLOAD_LEDGER = join(ledgerDir, "ledger");

const dirs = suiteDirs();
for (const dir of dirs) rmSync(join(dir, RESULTS), { recursive: true, force: true });

const runs = [];
// Two suites at a time on a 2-core machine: the timing-sensitive tests (timeouts, stalls) stay honest.
runs.push({
  what: "turbo run test",
  exitCode: await run("pnpm", [
    "exec",
    "turbo",
    "run",
    "test",
    "--continue",
    "--concurrency=2",
    ...process.argv.slice(2),
  ]),
  reports: dirs.filter((dir) => dir !== root).map((dir) => join(dir, RESULTS, "results.json")),
});
// Then the repository suite and the Node matrix, two at a time (each vitest runs its files one at a
// time on 2 cores: two suites load the machine as turbo's two tasks did), the longest first; each
// line of their output names its suite.
const jobs = [
  {
    what: "repository tests",
    label: "[repository] ",
    command: "pnpm",
    args: ["exec", "vitest", "run", "--config", "vitest.config.ts"],
    cwd: root,
    reports: [join(root, RESULTS, "results.json")],
  },
];
const notRun = [];
const nodes = [];
for (const major of extraNodes) {
  try {
    nodes.push({ major, node: await nodeBinary(major) });
  } catch (error) {
    notRun.push(`the suites on Node ${major} did not run: ${error.message}`);
  }
}
for (const pkg of MATRIX_PACKAGES) {
  for (const { major, node } of nodes) {
    const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
    const report = `${RESULTS}/node-${major}.json`;
    const dir = join(root, "packages", pkg);
    jobs.push({
      what: `@api-clients/${pkg} on Node ${major}`,
      label: `[${pkg} on Node ${major}] `,
      command: node,
      args: [
        vitest,
        "run",
        `--outputFile.json=${report}`,
        ...MATRIX_EXCLUDE.map((glob) => `--exclude=${glob}`),
      ],
      cwd: dir,
      reports: [join(dir, report)],
    });
  }
}
const exitCodes = new Array(jobs.length);
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const index = next++;
    const job = jobs[index];
    console.log(`\n=== ${job.what}`);
    exitCodes[index] = await run(job.command, job.args, job.cwd, job.label);
    console.log(
      `=== ${job.what}: ${exitCodes[index] === 0 ? "passed" : `exit ${exitCodes[index]}`}`,
    );
  }
}
await Promise.all([worker(), worker()]);
jobs.forEach((job, index) =>
  runs.push({ what: job.what, exitCode: exitCodes[index], reports: job.reports }),
);

const downloads = downloadSummary(process.env.TOOL_DOWNLOAD_LEDGER);
rmSync(ledgerDir, { recursive: true, force: true });
const summary = summarise(runs, root);
const problems = [...summary.problems, ...notRun];
if (problems.length > 0) console.error(`\n${problems.map((p) => `test: ${p}`).join("\n")}`);
const failed = summary.failed + notRun.length;
console.log(`\n${downloads}`);
console.log(`${summary.passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
