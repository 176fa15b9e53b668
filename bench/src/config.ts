// Sizes of each part for a full run, a quick run (CI, under 60 s) and the harness test (a few seconds).

/** How big each part of the bench is; every mode runs the same code paths. */
export interface BenchConfig {
  mode: "full" | "quick" | "tiny";
  overhead: { requests: number; rounds: number; warmup: number; concurrency: number };
  pagination: { entries: number; rounds: number; consumerRounds: number; consumerMs: number };
  /** Memory probe: entries paged in a child process (the whole set in a full run). */
  memory: { sampleMs: number };
  peer: { faultTimes: number };
  throughput: { durationS: number; rounds: number; connections: number; seedLogs: number };
  toolchain: { generateRuns: number; tscRuns: number };
  /** Whether to run the static-mock peer (prism) of part 5. */
  prism: boolean;
}

/** Full run: the sizes of the issue. */
export const FULL: BenchConfig = {
  mode: "full",
  overhead: { requests: 20_000, rounds: 10, warmup: 2_000, concurrency: 16 },
  pagination: { entries: 1_000_000, rounds: 2, consumerRounds: 2, consumerMs: 2 },
  memory: { sampleMs: 5 },
  peer: { faultTimes: 2 },
  throughput: { durationS: 10, rounds: 2, connections: 10, seedLogs: 10_000 },
  toolchain: { generateRuns: 3, tscRuns: 2 },
  prism: true,
};

/** `--quick`: same paths, smaller N, under 60 s. */
export const QUICK: BenchConfig = {
  mode: "quick",
  overhead: { requests: 3_000, rounds: 3, warmup: 500, concurrency: 16 },
  pagination: { entries: 50_000, rounds: 2, consumerRounds: 1, consumerMs: 2 },
  memory: { sampleMs: 5 },
  peer: { faultTimes: 2 },
  throughput: { durationS: 2, rounds: 1, connections: 10, seedLogs: 2_000 },
  toolchain: { generateRuns: 1, tscRuns: 1 },
  prism: true,
};

/** The harness test: tiny N, no prism (its start-up alone takes seconds). */
export const TINY: BenchConfig = {
  mode: "tiny",
  overhead: { requests: 150, rounds: 1, warmup: 30, concurrency: 4 },
  pagination: { entries: 3_000, rounds: 1, consumerRounds: 1, consumerMs: 1 },
  memory: { sampleMs: 5 },
  peer: { faultTimes: 1 },
  throughput: { durationS: 1, rounds: 1, connections: 2, seedLogs: 200 },
  toolchain: { generateRuns: 1, tscRuns: 1 },
  prism: false,
};
