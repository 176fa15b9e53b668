// `pnpm bench [--quick] [--parts 1,2,…] [--out file]`: runs the benchmark, prints the table, writes
// results.json. Figures never fail the run; only a broken harness (an ERROR row) exits non-zero.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runBench, type Part } from "./bench.js";
import { FULL, QUICK } from "./config.js";
import { machine } from "./machine.js";
import { formatTable } from "./report.js";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    parts: { type: "string" },
    out: { type: "string" },
  },
  strict: true,
});
const config = values.quick ? QUICK : FULL;
const parts = new Set(
  (values.parts ?? "1,2,3,4,5,6").split(",").map((p) => Number(p.trim()) as Part),
);
const out = values.out ?? fileURLToPath(new URL("../results.json", import.meta.url));
const host = machine();

process.stderr.write(
  `bench (${config.mode}) on ${host.nproc} × ${host.cpu}, node ${host.node}, parts ${[...parts].join(",")}\n`,
);
const started = performance.now();
const rows = await runBench(config, parts, (m) => process.stderr.write(`  ${m}\n`));
const durationS = (performance.now() - started) / 1_000;

process.stdout.write(`\n${formatTable(rows)}\n\n`);
process.stdout.write(
  `mode ${config.mode}, ${durationS.toFixed(1)} s, ${host.nproc} CPUs (${host.cpu}), node ${host.node}; ` +
    `${rows.filter((r) => r.verdict === "FAIL").length} target(s) missed, ` +
    `${rows.filter((r) => r.verdict === "ERROR").length} harness error(s)\n`,
);
writeFileSync(
  out,
  `${JSON.stringify({ mode: config.mode, date: new Date().toISOString(), durationS, machine: host, rows }, null, 2)}\n`,
);
process.stdout.write(`results written to ${out}\n`);
process.exitCode = rows.some((r) => r.verdict === "ERROR") ? 1 : 0;
