// Part 6: codegen time for both specs, and the type-check cost of consumers calling every client method.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { BenchConfig } from "../config.js";
import { ratioOf, type Row } from "../report.js";
import { runToEnd } from "../support/child.js";
import { median } from "../support/stats.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BENCH = fileURLToPath(new URL("../../", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** Figures `tsc --extendedDiagnostics` prints that the bench reports. */
export interface TscDiagnostics {
  checkS: number;
  totalS: number;
  instantiations: number;
}

/** Type-checks one consumer project and reads its diagnostics; fails on type errors. */
export async function tscDiagnostics(project: string): Promise<TscDiagnostics> {
  const run = await runToEnd(
    process.execPath,
    [TSC, "-p", project, "--extendedDiagnostics", "--noEmit"],
    { cwd: BENCH, timeoutMs: 120_000 },
  );
  if (run.code !== 0) throw new Error(`tsc -p ${project} failed:\n${run.stdout}${run.stderr}`);
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+([\\d.]+)`, "m").exec(run.stdout);
    if (!match) throw new Error(`tsc output has no "${name}"`);
    return Number(match[1]);
  };
  return {
    checkS: field("Check time"),
    totalS: field("Total time"),
    instantiations: field("Instantiations"),
  };
}

/** Times `node scripts/generate.mjs --check [--only pkg]`: the whole codegen, without writing files. */
export async function generateTime(only?: string): Promise<{ ms: number; drift: boolean }> {
  const args = ["scripts/generate.mjs", "--check", ...(only ? ["--only", only] : [])];
  const run = await runToEnd(process.execPath, args, { cwd: ROOT, timeoutMs: 120_000 });
  if (run.code !== 0 && run.code !== 1) {
    throw new Error(`node ${args.join(" ")} exited ${run.code}:\n${run.stderr}`);
  }
  return { ms: run.ms, drift: run.code === 1 };
}

/** Runs part 6. */
export async function runToolchain(config: BenchConfig): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [label, only] of [
    ["both specs", undefined],
    ["logs spec", "logs-client"],
    ["management spec", "management-client"],
  ] as const) {
    const runs = [];
    for (let i = 0; i < config.toolchain.generateRuns; i++) runs.push(await generateTime(only));
    const ms = median(runs.map((r) => r.ms));
    rows.push({
      part: 6,
      name: `codegen: node scripts/generate.mjs${only ? ` --only ${only}` : ""} (${label})`,
      ours: ms,
      peer: null,
      unit: "ms",
      ratio: null,
      target: "—",
      verdict: "info",
      note:
        `wall time incl. node start-up, median of ${runs.length}; run with --check so the shared tree is not rewritten` +
        (runs.some((r) => r.drift) ? "; NOTE: generated files differ from the specs" : ""),
    });
  }

  const check = async (project: string) => {
    const runs: TscDiagnostics[] = [];
    for (let i = 0; i < config.toolchain.tscRuns; i++) runs.push(await tscDiagnostics(project));
    return {
      checkS: median(runs.map((r) => r.checkS)),
      totalS: median(runs.map((r) => r.totalS)),
      instantiations: runs[0]!.instantiations,
    };
  };
  const logs = await check("consumer/tsconfig.logs.json");
  const management = await check("consumer/tsconfig.management.json");
  const peer = await check("consumer/tsconfig.peer.json");
  const tscRow = (
    name: string,
    ours: number,
    base: number | null,
    unit: string,
    note: string,
  ): Row => ({
    part: 6,
    name,
    ours,
    peer: base,
    unit,
    ratio: ratioOf(ours, base),
    target: "—",
    verdict: "info",
    note,
  });
  rows.push(
    tscRow(
      "tsc check time: logs consumer (every method) vs qstash consumer",
      logs.checkS * 1_000,
      peer.checkS * 1_000,
      "ms",
      `tsc --extendedDiagnostics --noEmit; total ${logs.totalS}s vs ${peer.totalS}s`,
    ),
    tscRow(
      "tsc instantiations: logs consumer vs qstash consumer",
      logs.instantiations,
      peer.instantiations,
      "",
      "consumer/logs-consumer.ts vs consumer/peer-consumer.ts",
    ),
    tscRow(
      "tsc check time: management consumer (every method)",
      management.checkS * 1_000,
      null,
      "ms",
      `total ${management.totalS}s; the peer SDK has no management client`,
    ),
    tscRow(
      "tsc instantiations: management consumer (every method)",
      management.instantiations,
      null,
      "",
      "consumer/management-consumer.ts",
    ),
  );
  return rows;
}
