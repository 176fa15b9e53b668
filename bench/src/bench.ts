// Runs the seven parts in order and collects their rows; a part whose harness breaks becomes an ERROR row.
import type { BenchConfig } from "./config.js";
import { runBundle } from "./parts/bundle.js";
import { runExport } from "./parts/export.js";
import { runFaultRows } from "./parts/faults.js";
import { runMultiProcess } from "./parts/multi-process.js";
import { runOverhead } from "./parts/overhead.js";
import { pagingRounds, runPagination } from "./parts/pagination.js";
import { runPeer } from "./parts/peer.js";
import { runThroughput } from "./parts/throughput.js";
import { runToolchain } from "./parts/toolchain.js";
import type { Row } from "./report.js";
import { startEmulatorChild, type EmulatorChild } from "./support/emulator-child.js";
import { LOOPS } from "./support/loops.js";

/** Which parts to run (all by default). */
export type Part = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Progress messages go to stderr so stdout holds only the table. */
export type Progress = (message: string) => void;

function errorRow(part: number, what: string, error: unknown): Row {
  const message = error instanceof Error ? error.message : String(error);
  return {
    part,
    name: `${what}: harness error`,
    ours: "error",
    peer: null,
    unit: "",
    ratio: null,
    target: "—",
    verdict: "ERROR",
    note: message.split("\n").slice(0, 6).join(" | "),
  };
}

/** Runs the selected parts with `config`'s sizes and returns every row. */
export async function runBench(
  config: BenchConfig,
  parts: ReadonlySet<Part> = new Set([1, 2, 3, 4, 5, 6, 7]),
  progress: Progress = () => undefined,
): Promise<Row[]> {
  const rows: Row[] = [];
  const step = async (part: number, what: string, run: () => Promise<Row[]>) => {
    const started = performance.now();
    progress(`part ${part}: ${what}…`);
    try {
      rows.push(...(await run()));
    } catch (error) {
      rows.push(errorRow(part, what, error));
    }
    progress(`part ${part}: done in ${((performance.now() - started) / 1_000).toFixed(1)} s`);
  };

  if (parts.has(1)) await step(1, "per-request overhead", () => runOverhead(config));

  if (parts.has(2) || parts.has(3) || parts.has(5)) {
    let emu: EmulatorChild | undefined;
    await step(0, `start emulator with ${config.pagination.entries} entries`, async () => {
      emu = await startEmulatorChild(config.pagination.entries);
      return [];
    });
    if (emu !== undefined) {
      const running = emu;
      try {
        if (parts.has(2) || parts.has(3)) {
          // One rotation without consumer work feeds both part 2 (ours vs raw) and part 3 (ours vs peer).
          let noConsumer: Record<string, number[]> | undefined;
          await step(2, "paging rounds (raw, ours, peer)", async () => {
            noConsumer = await pagingRounds(
              running,
              LOOPS,
              config.pagination.rounds,
              config.pagination.roundEntries,
              0,
            );
            return [];
          });
          if (noConsumer !== undefined) {
            const shared = noConsumer;
            if (parts.has(2))
              await step(2, "pagination", () => runPagination(config, running, shared));
            if (parts.has(2)) await step(2, "export (CLI)", () => runExport(config, running));
            if (parts.has(3)) await step(3, "peer client", () => runPeer(config, running, shared));
          }
        }
        if (parts.has(5))
          await step(5, "emulator throughput", () => runThroughput(config, running));
      } finally {
        await running.stop();
      }
    }
  }

  if (parts.has(3)) await step(3, "fault rows", () => runFaultRows(config));
  if (parts.has(4)) await step(4, "bundle size", () => runBundle(config));
  if (parts.has(6)) await step(6, "toolchain", () => runToolchain(config));
  if (parts.has(7)) await step(7, "multi-process rate limit", () => runMultiProcess(config));
  // Parts ran in the order that shares one emulator; report them by number (a stable sort).
  return rows.sort((a, b) => a.part - b.part);
}
