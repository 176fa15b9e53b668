// `pnpm bench [--quick] [--parts 1,2,…] [--out file] [--render | --no-render] [--note text]`: runs the
// benchmark, prints the table and writes the results. A full run of every part writes
// bench/results.json and renders it into the READMEs; a quick or partial run writes
// bench/results.quick.json / results.partial.json and renders nothing unless asked (--out, --render).
// Figures never fail the run; only a broken harness (an ERROR row) exits non-zero.
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBench, type Part } from "./bench.js";
import { FULL, QUICK } from "./config.js";
import { machine } from "./machine.js";
import { README_FILES, renderReadmes } from "./render.js";
import { formatTable } from "./report.js";
import {
  BENCH_MAJOR,
  compareVerdicts,
  gitState,
  readResults,
  RESULTS_FILE,
  ROOT,
  writeResults,
  type Agreement,
  type Results,
} from "./results.js";

const ALL_PARTS: Part[] = [1, 2, 3, 4, 5, 6, 7];
const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    parts: { type: "string" },
    out: { type: "string" },
    render: { type: "boolean" },
    "no-render": { type: "boolean", default: false },
    note: { type: "string" },
  },
  strict: true,
});
const config = values.quick ? QUICK : FULL;
const parts = new Set(
  (values.parts ?? ALL_PARTS.join(",")).split(",").map((p) => Number(p.trim()) as Part),
);
const complete = ALL_PARTS.every((p) => parts.has(p));
const published = !values.quick && complete;
const out =
  values.out ??
  (published
    ? RESULTS_FILE
    : fileURLToPath(new URL(`../results.${complete ? "quick" : "partial"}.json`, import.meta.url)));
const render = values["no-render"] ? false : (values.render ?? published);
const host = machine();
const git = gitState();
const loadAverage = loadavg().map((l) => Math.round(l * 100) / 100);

process.stderr.write(
  `bench v${BENCH_MAJOR} (${config.mode}) on ${host.nproc} × ${host.cpu}, node ${host.node}, ` +
    `parts ${[...parts].join(",")}, commit ${git.commit.slice(0, 10)}${git.dirty ? " (dirty)" : ""}, ` +
    `load ${loadAverage.join(" ")}\n`,
);
const date = new Date().toISOString();
const started = performance.now();
const rows = await runBench(config, parts, (m) => process.stderr.write(`  ${m}\n`));
const durationS = (performance.now() - started) / 1_000;

process.stdout.write(`\n${formatTable(rows)}\n\n`);
process.stdout.write(
  `mode ${config.mode}, ${durationS.toFixed(1)} s, ${host.nproc} CPUs (${host.cpu}), node ${host.node}; ` +
    `${rows.filter((r) => r.verdict === "FAIL").length} target(s) missed, ` +
    `${rows.filter((r) => r.verdict === "inconclusive").length} inconclusive, ` +
    `${rows.filter((r) => r.verdict === "ERROR").length} harness error(s)\n`,
);
// A full run compares its verdicts with the full run it replaces (same bench major), so the READMEs say
// whether two consecutive runs agree.
let previous: Agreement | undefined;
if (config.mode === "full" && existsSync(out)) {
  try {
    const earlier = readResults(out);
    if (earlier.mode === "full") previous = compareVerdicts(earlier, rows);
  } catch {
    // Another bench major version (or unreadable): nothing comparable.
  }
}
const results: Results = {
  benchMajor: BENCH_MAJOR,
  mode: config.mode,
  ...(values.note === undefined ? {} : { note: values.note }),
  date,
  durationS,
  git,
  machine: { ...host, loadAverage },
  parts: [...parts].sort((a, b) => a - b),
  rows,
  ...(previous === undefined ? {} : { previous }),
};
writeResults(out, results);
process.stdout.write(`results written to ${out}\n`);
if (render) {
  const rendered = await renderReadmes(results);
  for (const key of Object.keys(README_FILES) as (keyof typeof README_FILES)[]) {
    writeFileSync(join(ROOT, README_FILES[key]), rendered[key]);
  }
  process.stdout.write(`rendered into ${Object.values(README_FILES).join(" and ")}\n`);
}
process.exitCode = rows.some((r) => r.verdict === "ERROR") ? 1 : 0;
