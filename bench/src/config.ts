// Sizes of each part for a full run (target ≤ 8 minutes on 2 CPUs, measured 520–616 s: the memory and
// export rows, 28 child processes each paging the whole log of 1,000,000 entries, take 4–6 minutes of
// it, so the rest is kept small), a quick run (CI, under 60 s) and the harness test (a few seconds).
// Every mode runs the same code paths and prints the same rows.

/** How big each part of the bench is. */
export interface BenchConfig {
  mode: "full" | "quick" | "tiny";
  /** Part 1: requests per variant per round, interleaved rounds, warm-up requests, the concurrent mode. */
  overhead: { perRound: number; rounds: number; warmup: number; concurrency: number };
  /**
   * Part 2: entries seeded (and paged whole by the memory probe); entries read per timed round;
   * rounds without and with consumer work; consumer work per page in milliseconds; rounds of the
   * export rows (whole log, only when the CLI package is in the workspace).
   */
  pagination: {
    entries: number;
    roundEntries: number;
    rounds: number;
    consumerRounds: number;
    consumerMs: number;
    exportRounds: number;
  };
  /**
   * Memory probes: sampling interval of `process.memoryUsage()`, milliseconds; interleaved rounds of
   * the paging probes (ours, raw), each a fresh child process paging the whole seeded log.
   */
  memory: { sampleMs: number; rounds: number };
  /** Part 3: faults injected before the peer comparison recovers (within the retry budget). */
  peer: { faultTimes: number };
  /** Part 5: seconds per load run, interleaved rounds, autocannon connections. */
  throughput: { durationS: number; rounds: number; connections: number };
  /** Part 6: repetitions of codegen and of each type-check. */
  toolchain: { generateRuns: number; tscRuns: number };
  /** Part 7: child processes, entries of the account they each page whole, page size. */
  multiProcess: { processes: number; entries: number; count: number };
  /** Whether to run the static-mock peer (prism) of part 5. */
  prism: boolean;
}

/** Full run: at least 7 interleaved rounds for every judged ratio. */
export const FULL: BenchConfig = {
  mode: "full",
  // Many short rounds: a major GC or a slow moment of the machine lands in a few of them, which the
  // quartiles set aside (in rounds of 700, bare openapi-fetch against itself spread 0.90–1.12×).
  overhead: { perRound: 200, rounds: 41, warmup: 1_000, concurrency: 16 },
  pagination: {
    entries: 1_000_000,
    roundEntries: 200_000,
    rounds: 7,
    consumerRounds: 7,
    consumerMs: 2,
    exportRounds: 7,
  },
  memory: { sampleMs: 5, rounds: 7 },
  peer: { faultTimes: 2 },
  throughput: { durationS: 1.5, rounds: 7, connections: 10 },
  toolchain: { generateRuns: 2, tscRuns: 1 },
  multiProcess: { processes: 8, entries: 1_000, count: 50 },
  prism: true,
};

/** `--quick`: the same rows with fewer rounds and smaller N, under 60 s. */
export const QUICK: BenchConfig = {
  mode: "quick",
  overhead: { perRound: 120, rounds: 5, warmup: 100, concurrency: 16 },
  pagination: {
    entries: 50_000,
    roundEntries: 20_000,
    rounds: 3,
    consumerRounds: 3,
    consumerMs: 2,
    exportRounds: 3,
  },
  memory: { sampleMs: 5, rounds: 3 },
  peer: { faultTimes: 2 },
  throughput: { durationS: 0.6, rounds: 3, connections: 10 },
  toolchain: { generateRuns: 1, tscRuns: 1 },
  multiProcess: { processes: 8, entries: 500, count: 50 },
  prism: true,
};

/** The harness test: tiny N, no prism (its start-up alone takes seconds). */
export const TINY: BenchConfig = {
  mode: "tiny",
  overhead: { perRound: 30, rounds: 3, warmup: 20, concurrency: 4 },
  pagination: {
    entries: 3_000,
    roundEntries: 2_000,
    rounds: 2,
    consumerRounds: 1,
    consumerMs: 1,
    exportRounds: 1,
  },
  memory: { sampleMs: 5, rounds: 2 },
  peer: { faultTimes: 1 },
  throughput: { durationS: 1, rounds: 1, connections: 2 },
  toolchain: { generateRuns: 1, tscRuns: 1 },
  multiProcess: { processes: 8, entries: 200, count: 50 },
  prism: false,
};
