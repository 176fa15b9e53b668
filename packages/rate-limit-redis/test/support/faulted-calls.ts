/**
 * Calls under random faults for the scale proof (its test and the bench's part 7): a local server
 * answers each request at random with a reset connection, a 503, a 429 with random (often hostile)
 * rate-limit headers, or a 200; a logs client with the Redis limiter makes `calls` calls, `concurrency`
 * at a time, each with `deadlineMs`, and each call's time to settle is measured on this process's clock.
 */
import { createLogsClient } from "@api-clients/logs-client";
import { createRedisRateLimiter } from "../../src/index.js";
import { randomHeaderSet, seeded } from "../../../core/test/support/random-headers.js";
import { startTestServer } from "../../../core/test/support/test-server.js";

/** What the faulted calls did. */
export interface FaultedRun {
  /** Each call's time from start to settling, in milliseconds. */
  durations: number[];
  longestMs: number;
  /**
   * The longest this process's event loop stalled meanwhile (a 20 ms timer fired this much late; the
   * machine's load): no call can settle during a stall, in milliseconds.
   */
  latenessMs: number;
  wallMs: number;
}

/** Runs the calls; `seed` makes the faults repeatable. */
export async function runFaultedCalls(options: {
  redisUrl: string;
  calls: number;
  concurrency: number;
  deadlineMs: number;
  seed: number;
}): Promise<FaultedRun> {
  const random = seeded(options.seed);
  const server = await startTestServer({
    handler: () => {
      const roll = random();
      if (roll < 0.15) return { reset: true };
      if (roll < 0.3) return { status: 503, body: { error: "busy" } };
      if (roll < 0.5) {
        const { headers } = randomHeaderSet(random, Date.now());
        return { status: 429, headers, body: { error: "slow down" } };
      }
      return { status: 200, body: [] };
    },
  });
  const rateLimiter = createRedisRateLimiter({
    url: options.redisUrl,
    keyPrefix: `faults-${options.seed}:`,
  });
  try {
    const logs = createLogsClient({ token: "tok_faults", baseUrl: server.url, rateLimiter });
    const durations: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < options.calls) {
        next++;
        const started = performance.now();
        await logs.list({ count: 1 }, { deadlineMs: options.deadlineMs }).catch(() => undefined);
        durations.push(performance.now() - started);
      }
    };
    const started = performance.now();
    let stalledMs = 0;
    let tick = performance.now();
    const monitor = setInterval(() => {
      const now = performance.now();
      stalledMs = Math.max(stalledMs, now - tick - 20);
      tick = now;
    }, 20);
    try {
      await Promise.all(Array.from({ length: options.concurrency }, worker));
    } finally {
      clearInterval(monitor);
    }
    return {
      durations,
      longestMs: Math.max(...durations),
      latenessMs: Math.round(stalledMs),
      wallMs: performance.now() - started,
    };
  } finally {
    await rateLimiter.close();
    await server.close();
  }
}
