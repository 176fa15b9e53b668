// `bench/results.json`: what a run measured, where (git commit, machine) and with which bench version.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BenchConfig } from "./config.js";
import type { Machine } from "./machine.js";
import type { Row, Verdict } from "./report.js";

/** Repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The published results file, rendered into the READMEs. */
export const RESULTS_FILE = fileURLToPath(new URL("../results.json", import.meta.url));

/**
 * Major version of the bench (`bench/package.json`): bumped when rows, method or targets change so that
 * older figures are no longer comparable; the READMEs only accept results of the current major.
 */
export const BENCH_MAJOR = Number(
  (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version.split(".")[0],
);

/** The commit a run measured, and whether the working tree differed from it. */
export interface GitState {
  /** `git rev-parse HEAD`. */
  commit: string;
  /** Whether tracked files other than the bench's own outputs were modified. */
  dirty: boolean;
  /** The modified tracked files (at most 20), when dirty. */
  dirtyFiles: string[];
  /** The last commit that changed `packages/*\/src` (the code the figures describe). */
  sourceCommit: string;
}

/** Everything `bench/results.json` holds. */
export interface Results {
  benchMajor: number;
  mode: BenchConfig["mode"];
  /** Free text shown above the rendered tables (for example: provisional figures). */
  note?: string;
  /** ISO date of the start of the run. */
  date: string;
  durationS: number;
  git: GitState;
  machine: Machine & { loadAverage: number[] };
  /** Which parts ran. */
  parts: number[];
  rows: Row[];
  /** A full run: how its verdicts compare with the full run it replaced (same bench major). */
  previous?: Agreement;
}

/** A row whose verdict differs between two runs. */
export interface VerdictChange {
  name: string;
  before: Verdict;
  after: Verdict;
}

/** How one run's verdicts compare with an earlier run's. */
export interface Agreement {
  /** The earlier run's commit and date. */
  commit: string;
  date: string;
  /** Rows decided (`pass` or `FAIL`) in both runs, with the same verdict. */
  agree: number;
  /** Rows decided in both runs, with opposite verdicts. */
  flips: VerdictChange[];
  /** Rows decided in one run and `inconclusive` in the other. */
  undecided: VerdictChange[];
}

const decided = (v: Verdict | undefined) => v === "pass" || v === "FAIL";

/** Compares the verdicts of `rows` with those of an earlier run, row by row (by name). */
export function compareVerdicts(earlier: Results, rows: readonly Row[]): Agreement {
  const before = new Map(earlier.rows.map((r) => [r.name, r.verdict]));
  const agreement: Agreement = {
    commit: earlier.git.commit,
    date: earlier.date,
    agree: 0,
    flips: [],
    undecided: [],
  };
  for (const row of rows) {
    const was = before.get(row.name);
    if (was === undefined) continue;
    const change = { name: row.name, before: was, after: row.verdict };
    if (decided(was) && decided(row.verdict)) {
      if (was === row.verdict) agreement.agree++;
      else agreement.flips.push(change);
    } else if (
      decided(was) !== decided(row.verdict) &&
      [was, row.verdict].includes("inconclusive")
    ) {
      agreement.undecided.push(change);
    }
  }
  return agreement;
}

/** Files the bench writes itself; their changes do not make a run "dirty". */
const OWN_OUTPUTS = new Set(["bench/results.json", "bench/README.md", "README.md"]);

/** The code the figures describe: every package's sources. */
const SOURCES = ":(glob)packages/*/src/**";

function git(args: string[]): string {
  return execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trimEnd();
}

/** Reads the repository's state (call it before the run, so that the commit is what was measured). */
export function gitState(): GitState {
  try {
    const dirtyFiles = git(["status", "--porcelain", "--untracked-files=no"])
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.slice(3))
      .filter((file) => !OWN_OUTPUTS.has(file));
    return {
      commit: git(["rev-parse", "HEAD"]),
      dirty: dirtyFiles.length > 0,
      dirtyFiles: dirtyFiles.slice(0, 20),
      sourceCommit: git(["log", "-1", "--format=%H", "--", SOURCES]),
    };
  } catch {
    return { commit: "unknown", dirty: true, dirtyFiles: [], sourceCommit: "unknown" };
  }
}

/**
 * Whether `results` still describe the sources: the last commit that changed `packages/*\/src` must be
 * the measured commit or one of its ancestors. Returns why not, or undefined.
 */
export function staleness(results: Results): string | undefined {
  try {
    const last = git(["log", "-1", "--format=%H", "--", SOURCES]);
    if (results.git.commit === "unknown") return "the results do not name their commit";
    execFileSync("git", ["merge-base", "--is-ancestor", last, results.git.commit], { cwd: ROOT });
    return undefined;
  } catch {
    return "packages/*/src changed after the measured commit: run `pnpm bench` again";
  }
}

/** Writes results as JSON. */
export function writeResults(file: string, results: Results): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** Reads a results file and checks that it belongs to the current major version of the bench. */
export function readResults(file = RESULTS_FILE): Results {
  const results = JSON.parse(readFileSync(file, "utf8")) as Results;
  if (results.benchMajor !== BENCH_MAJOR) {
    throw new Error(
      `${file} comes from bench v${String(results.benchMajor)}, the bench is v${BENCH_MAJOR}: run \`pnpm bench\` again`,
    );
  }
  return results;
}
