// Part 7, one budget for many instances: 8 child processes, each its own logs client, page through the
// same account of an emulator with a burst limit of 20 requests a second, first each with its own
// in-process gate, then all with the Redis limiter (a real redis-server on a free loopback port). The
// runner and the child are the rate-limit-redis package's test support, shared rather than copied.
import { startEmulator } from "@api-clients/emulator";
import type { BenchConfig } from "../config.js";
import type { Row } from "../report.js";
import { startRedisServer } from "../../../packages/rate-limit-redis/test/support/redis-server.js";
import { runFaultedCalls } from "../../../packages/rate-limit-redis/test/support/faulted-calls.js";
import {
  describeRun,
  runPagers,
  runRedisDeath,
  runSharing,
} from "../../../packages/rate-limit-redis/test/support/share-run.js";

/** The emulator's burst limit, requests per second. */
export const BURST_LIMIT = 20;

/** Target: share of the burst budget used with the Redis limiter. */
const TARGET = 0.85;

/** Runs both variants once each (a single measurement: no rounds) and returns the two rows. */
export async function runMultiProcess(config: BenchConfig): Promise<Row[]> {
  const { processes, entries, count } = config.multiProcess;
  const redis = await startRedisServer();
  const emulator = await startEmulator({ seedLogs: entries, burstLimit: BURST_LIMIT });
  try {
    const run = (redisUrl?: string) => runPagers({ emulator, processes, count, redisUrl });
    const own = await run();
    const shared = await run(redis.url);
    for (const r of [own, shared]) {
      const lost = r.children.filter((c) => c.exitCode !== 0 || c.entries !== entries);
      if (lost.length > 0) {
        throw new Error(`a child did not page the whole account: ${JSON.stringify(lost[0])}`);
      }
    }
    const name = `${processes} processes paging one account, burstLimit ${BURST_LIMIT}/s`;
    const scale = config.mode === "tiny" ? [] : await scaleRows(emulator, redis);
    const perSecond = Number(shared.requestsPerSecond.toFixed(2));
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    return [
      {
        part: 7,
        name: `${name}: 429s with the Redis limiter vs own in-process gates`,
        ours: `${shared.refused} 429s`,
        peer: `${own.refused} 429s`,
        unit: "",
        ratio: null,
        target: "0 with Redis",
        verdict: shared.refused === 0 ? "pass" : "FAIL",
        note: `${shared.accepted} pages each run; one run of each`,
      },
      {
        part: 7,
        name: `${name}: throughput with the Redis limiter vs the budget`,
        ours: perSecond,
        peer: BURST_LIMIT,
        unit: "req/s",
        ratio: perSecond / BURST_LIMIT,
        target: `≥ ${TARGET}×`,
        verdict: perSecond / BURST_LIMIT >= TARGET ? "pass" : "FAIL",
        note:
          `with Redis ${seconds(shared.elapsedMs)}; own gates ${own.requestsPerSecond.toFixed(1)} ` +
          `req/s in ${seconds(own.elapsedMs)} (with their 429s retried); one run of each`,
      },
      ...scale,
    ];
  } finally {
    await emulator.close();
    await redis.stop();
  }
}

/**
 * Issue 31's proof at scale, one run each (the runners of the rate-limit-redis package's scale test):
 * 8 processes sharing the account for 20 s and 32 for 30 s, every process started and warm before the
 * run (429s; share of the budget used and distance of the busiest or idlest process from a fair share,
 * both over the run's whole burst windows from 1 s in: at 8 processes about 45 calls each, at 32
 * about 18, so ±15 % is several calls, not one); Redis killed 2 s into a 10 s run for 2 s and restarted
 * empty (how soon every process paced alone, how soon all shared again, the 429s meanwhile); 500 calls
 * under random faults with `deadlineMs: 2000` (the longest time to settle).
 */
async function scaleRows(
  emulator: Parameters<typeof runSharing>[0]["emulator"],
  redis: Awaited<ReturnType<typeof startRedisServer>>,
): Promise<Row[]> {
  const rows: Row[] = [];
  const judge = (ok: boolean) => (ok ? "pass" : "FAIL");
  for (const [processes, inFlight, durationMs] of [
    [8, 2, 20_000],
    [32, 1, 30_000],
  ] as const) {
    const run = await runSharing({
      emulator,
      burstLimit: BURST_LIMIT,
      processes,
      durationMs,
      inFlight,
      redisUrl: redis.url,
    });
    const name = `${processes} processes sharing one account through Redis, burstLimit ${BURST_LIMIT}/s, ${durationMs / 1000} s`;
    const note = describeRun(`${processes} processes`, run, BURST_LIMIT);
    rows.push(
      {
        part: 7,
        name: `${name}: 429s`,
        ours: `${run.refused} 429s`,
        peer: null,
        unit: "",
        ratio: null,
        target: "0",
        verdict: judge(run.refused === 0),
        note,
      },
      {
        part: 7,
        name: `${name}: budget used`,
        ours: `${(run.budgetUsed * 100).toFixed(1)} %`,
        peer: null,
        unit: "",
        ratio: null,
        target: "≥ 90 %",
        verdict: judge(run.budgetUsed >= 0.9),
        note,
      },
      {
        part: 7,
        name: `${name}: farthest process from a fair share`,
        ours: `±${(run.unfairness * 100).toFixed(1)} %`,
        peer: null,
        unit: "",
        ratio: null,
        target: "≤ ±15 %",
        verdict: judge(run.unfairness <= 0.15),
        note,
      },
    );
  }
  const death = await runRedisDeath({
    emulator,
    burstLimit: BURST_LIMIT,
    processes: 8,
    durationMs: 10_000,
    inFlight: 2,
    redis,
    killAfterMs: 2_000,
    downMs: 2_000,
  });
  const deathName = "8 processes, Redis killed for 2 s and restarted empty";
  const deathNote = describeRun("Redis killed", death, BURST_LIMIT);
  rows.push(
    {
      part: 7,
      name: `${deathName}: every process paces alone after`,
      ours: death.aloneAfterMs,
      peer: null,
      unit: "ms",
      ratio: null,
      target: "≤ 1000 ms",
      verdict: judge(death.aloneAfterMs <= 1_000),
      note: deathNote,
    },
    {
      part: 7,
      name: `${deathName}: every process shares again after`,
      ours: death.sharedAgainAfterMs,
      peer: null,
      unit: "ms",
      ratio: null,
      target: "≤ 5000 ms",
      verdict: judge(death.sharedAgainAfterMs <= 5_000),
      note: deathNote,
    },
    {
      part: 7,
      name: `${deathName}: overshoot (429s of all requests)`,
      ours: `${death.refused} 429s, ${(death.overshoot * 100).toFixed(1)} %`,
      peer: null,
      unit: "",
      ratio: null,
      target: "≤ 5 %",
      verdict: judge(death.overshoot <= 0.05),
      note: deathNote,
    },
  );
  const faulted = await runFaultedCalls({
    redisUrl: redis.url,
    calls: 500,
    concurrency: 25,
    deadlineMs: 2_000,
    seed: 500,
  });
  rows.push({
    part: 7,
    name: "500 calls under random faults (resets, 503s, 429s with hostile headers), deadlineMs 2000: longest to settle",
    ours: Math.round(faulted.longestMs),
    peer: 2_000,
    unit: "ms",
    ratio: faulted.longestMs / 2_000,
    target: "≤ 2050 ms",
    verdict: judge(faulted.longestMs <= 2_050),
    note: `the event loop stalled up to ${faulted.latenessMs} ms meanwhile (machine load); ${Math.round(faulted.wallMs)} ms in all`,
  });
  return rows;
}
