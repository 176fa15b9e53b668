// Part 2, export rows (issue #14): `api-clients logs export` to NDJSON beside a raw fetch loop writing
// the same lines, each in its own child process, in interleaved rounds over the whole seeded log.
// The rows appear only when the CLI package is in the workspace (`packages/cli/dist/index.js`, or the
// folder named by BENCH_CLI_DIR).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchConfig } from "../config.js";
import { atLeastInRounds, belowTargetRow, type Row } from "../report.js";
import { ROOT } from "../results.js";
import { runToEnd, srcFile, tsNodeArgs } from "../support/child.js";
import type { EmulatorChild } from "../support/emulator-child.js";
import { median, roundRatios, spread } from "../support/stats.js";
import type { ExportJob, ExportProbe } from "./export-probe.js";

/** Target of the export: its entries/s relative to the raw loop. */
export const EXPORT_TARGET = 0.9;
/** Target of the export: peak memory growth over the whole log, MiB. */
export const EXPORT_MEMORY_MIB = 64;

/** The CLI package folder, when it is built. */
export function cliDir(): string | undefined {
  const dir = process.env["BENCH_CLI_DIR"] ?? join(ROOT, "packages/cli");
  return existsSync(join(dir, "dist/index.js")) ? dir : undefined;
}

async function probe(job: ExportJob, expected: number): Promise<ExportProbe> {
  const run = await runToEnd(
    process.execPath,
    [...tsNodeArgs(srcFile("parts/export-probe.ts"), ["--expose-gc"]), JSON.stringify(job)],
    { timeoutMs: 300_000 },
  );
  if (run.code !== 0)
    throw new Error(`export probe (${job.kind}) exited ${run.code}: ${run.stderr}`);
  const result = JSON.parse(run.stdout.trim().split("\n").pop() ?? "") as ExportProbe;
  if (result.lines !== expected) {
    throw new Error(`export probe (${job.kind}) wrote ${result.lines} of ${expected} entries`);
  }
  return result;
}

/** Runs the export rows against the emulator child; none when the CLI is not in the workspace. */
export async function runExport(config: BenchConfig, emu: EmulatorChild): Promise<Row[]> {
  const dir = cliDir();
  if (dir === undefined) return [];
  const tmp = mkdtempSync(join(tmpdir(), "bench-export-"));
  try {
    const job = (kind: ExportJob["kind"]): ExportJob => ({
      kind,
      cliDir: dir,
      url: emu.url,
      token: emu.credentials.logsToken,
      pageSize: 1_000,
      out: join(tmp, `${kind}.ndjson`),
      sampleMs: config.memory.sampleMs,
    });
    const runs: Record<ExportJob["kind"], ExportProbe[]> = { cli: [], raw: [] };
    for (let round = 0; round < config.pagination.exportRounds; round++) {
      const order: ExportJob["kind"][] = round % 2 === 0 ? ["cli", "raw"] : ["raw", "cli"];
      for (const kind of order) runs[kind].push(await probe(job(kind), emu.seedLogs));
    }
    const rate = (p: ExportProbe) => p.lines / (p.ms / 1_000);
    const cli = runs.cli.map(rate);
    const raw = runs.raw.map(rate);
    const s = roundRatios(cli, raw);
    const cliRss = runs.cli.map((p) => p.rssGrowthMiB);
    const rawRss = runs.raw.map((p) => p.rssGrowthMiB);
    const entries = emu.seedLogs.toLocaleString("en-US");
    return [
      {
        part: 2,
        name: "export throughput: api-clients logs export vs raw-fetch NDJSON loop",
        ours: median(cli),
        peer: median(raw),
        unit: "entries/s",
        ratio: s.median,
        spread: s,
        target: `≥ ${EXPORT_TARGET.toFixed(2)}×`,
        verdict: atLeastInRounds(s, EXPORT_TARGET),
        note:
          `${entries} entries to an NDJSON file, each run in a fresh child process, ${s.rounds} interleaved rounds; ` +
          `min–max entries/s: CLI ${spread(cli)}, raw ${spread(raw)}`,
      },
      belowTargetRow(
        {
          part: 2,
          name: "export memory, peak RSS growth: api-clients logs export vs raw-fetch NDJSON loop",
          unit: "MiB",
          note:
            `the same ${s.rounds} interleaved runs over ${entries} entries, memoryUsage() every ` +
            `${config.memory.sampleMs} ms over a baseline after gc(); ours is the median [IQR]; ` +
            `min–max MiB: CLI ${spread(cliRss, 1)}, raw ${spread(rawRss, 1)}`,
        },
        cliRss,
        rawRss,
        EXPORT_MEMORY_MIB,
      ),
    ];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
