// Part 2: paging through the emulator's log with `logs.iterate()` vs a raw fetch + cursor loop:
// throughput with and without consumer work, and memory growth measured in a child process.
import type { BenchConfig } from "../config.js";
import { atLeastInRounds, belowTargetRow, type Row } from "../report.js";
import { runToEnd, srcFile, tsNodeArgs } from "../support/child.js";
import type { EmulatorChild } from "../support/emulator-child.js";
import { LOOPS, type Loop, type LoopTarget } from "../support/loops.js";
import type { MemoryGrowth } from "../support/memory-peak.js";
import { interleave, median, roundRatios, spread, withTimeout } from "../support/stats.js";

const PAGE_SIZE = 1_000;

/** Target of the paging memory rows: peak growth over the whole log, MiB. */
export const MEMORY_TARGET_MIB = 64;

/** Result of one memory probe. */
export interface MemoryProbe extends MemoryGrowth {
  entries: number;
  ms: number;
}

/** Runs `loop` once and returns entries per second; fails if it did not read every entry. */
export async function entriesPerSecond(loop: Loop, target: LoopTarget): Promise<number> {
  const started = performance.now();
  const entries = await loop(target);
  const seconds = (performance.now() - started) / 1_000;
  if (entries !== target.entries) {
    throw new Error(`paging read ${entries} entries, the emulator holds ${target.entries}`);
  }
  return entries / seconds;
}

/** Runs one loop in a fresh child process and returns its memory growth. */
export async function probeMemory(
  emu: EmulatorChild,
  loop: keyof typeof LOOPS,
  sampleMs: number,
): Promise<MemoryProbe> {
  const job = {
    loop,
    sampleMs,
    url: emu.url,
    token: emu.credentials.logsToken,
    entries: emu.seedLogs,
    pageSize: PAGE_SIZE,
    consumerMs: 0,
  };
  const run = await runToEnd(
    process.execPath,
    [...tsNodeArgs(srcFile("parts/memory-probe.ts"), ["--expose-gc"]), JSON.stringify(job)],
    { timeoutMs: 300_000 },
  );
  if (run.code !== 0) throw new Error(`memory probe (${loop}) exited ${run.code}: ${run.stderr}`);
  const result = JSON.parse(run.stdout.trim().split("\n").pop() ?? "") as MemoryProbe;
  if (result.entries !== emu.seedLogs) {
    throw new Error(`memory probe (${loop}) read ${result.entries} of ${emu.seedLogs} entries`);
  }
  return result;
}

/**
 * Per-loop entries/s of interleaved rounds, each reading the first `entries` entries; shared with
 * part 3 (the peer runs in the same rotation).
 */
export async function pagingRounds(
  emu: EmulatorChild,
  loops: Readonly<Record<string, Loop>>,
  rounds: number,
  entries: number,
  consumerMs: number,
  consumerKind: "cpu" | "io" = "cpu",
): Promise<Record<string, number[]>> {
  const target: LoopTarget = {
    url: emu.url,
    token: emu.credentials.logsToken,
    entries: Math.min(entries, emu.seedLogs),
    pageSize: PAGE_SIZE,
    consumerMs,
    consumerKind,
  };
  const variants = Object.fromEntries(
    Object.entries(loops).map(([name, loop]) => [name, () => entriesPerSecond(loop, target)]),
  );
  return withTimeout(interleave(variants, rounds), 900_000, "pagination rounds");
}

/**
 * Runs part 2. `noConsumer` are the rounds without consumer work (taken with the peer in the same
 * rotation, see part 3); this adds the consumer-cost rounds and the memory probes.
 */
export async function runPagination(
  config: BenchConfig,
  emu: EmulatorChild,
  noConsumer: Record<string, number[]>,
): Promise<Row[]> {
  const { consumerRounds, consumerMs } = config.pagination;
  const entries = Math.min(config.pagination.roundEntries, emu.seedLogs);
  const pages = Math.ceil(entries / PAGE_SIZE);
  const rows: Row[] = [];
  const judged = (
    name: string,
    results: Record<string, number[]>,
    min: number,
    note: string,
  ): Row => {
    const s = roundRatios(results["ours"]!, results["raw"]!);
    return {
      part: 2,
      name,
      ours: median(results["ours"]!),
      peer: median(results["raw"]!),
      unit: "entries/s",
      ratio: s.median,
      spread: s,
      target: `≥ ${min.toFixed(2)}×`,
      verdict: atLeastInRounds(s, min),
      note:
        `${note}; first ${entries.toLocaleString("en-US")} of ${emu.seedLogs.toLocaleString("en-US")} entries ` +
        `(${pages} pages of ${PAGE_SIZE}) per round, ${s.rounds} interleaved rounds; ` +
        `min–max entries/s: ours ${spread(results["ours"]!)}, raw ${spread(results["raw"]!)}`,
    };
  };
  rows.push(
    judged(
      "paging, no consumer work: logs.iterate() vs raw loop",
      noConsumer,
      0.95,
      "no work between pages",
    ),
  );

  for (const kind of ["cpu", "io"] as const) {
    const withWork = await pagingRounds(
      emu,
      { raw: LOOPS.raw, ours: LOOPS.ours },
      consumerRounds,
      entries,
      consumerMs,
      kind,
    );
    rows.push(
      judged(
        `paging, ${consumerMs} ms ${kind === "cpu" ? "CPU" : "I/O"} consumer work/page: logs.iterate() vs raw loop`,
        withWork,
        1.3,
        `${kind === "cpu" ? "busy-wait" : "timer wait"} of ${consumerMs} ms after each page`,
      ),
    );
  }

  // Memory in rounds too: one probe is a single draw of the garbage collector's timing, and RSS growth
  // near the target flips from run to run.
  const { sampleMs, rounds } = config.memory;
  const probes = await interleave(
    {
      ours: () => probeMemory(emu, "ours", sampleMs),
      raw: () => probeMemory(emu, "raw", sampleMs),
    },
    rounds,
  );
  for (const [what, key] of [
    ["heap", "heapGrowthMiB"],
    ["RSS", "rssGrowthMiB"],
  ] as const) {
    const ours = probes["ours"]!.map((p) => p[key]);
    const raw = probes["raw"]!.map((p) => p[key]);
    rows.push(
      belowTargetRow(
        {
          part: 2,
          name: `paging memory, peak ${what} growth: logs.iterate() vs raw loop`,
          unit: "MiB",
          note:
            `${rounds} interleaved rounds, each a whole run of ${emu.seedLogs.toLocaleString("en-US")} entries ` +
            `in a fresh child process (emulator in another), memoryUsage() every ${sampleMs} ms and at each ` +
            `page, over a baseline after gc(); ours is the median [IQR]; min–max MiB: ours ${spread(ours, 1)}, ` +
            `raw ${spread(raw, 1)}`,
        },
        ours,
        raw,
        MEMORY_TARGET_MIB,
      ),
    );
  }
  return rows;
}
