// Part 7, one budget for many instances: 8 child processes, each its own logs client, page through the
// same account of an emulator with a burst limit of 20 requests a second, first each with its own
// in-process gate, then all with the Redis limiter (a real redis-server on a free loopback port). The
// runner and the child are the rate-limit-redis package's test support, shared rather than copied.
import { startEmulator } from "@api-clients/emulator";
import type { BenchConfig } from "../config.js";
import type { Row } from "../report.js";
import { runPagers } from "../../../packages/rate-limit-redis/test/support/multi-process.js";
import { startRedisServer } from "../../../packages/rate-limit-redis/test/support/redis-server.js";

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
    ];
  } finally {
    await emulator.close();
    await redis.stop();
  }
}
