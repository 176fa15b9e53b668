// Eight instances of a service, each its own process and client, page through the same account on an
// emulator with a burst limit of 20 requests a second: first each with its own in-process gate, then
// all sharing one budget through Redis, then with Redis killed mid-run.
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPagers, type MultiProcessRun } from "./support/share-run.js";
import { startRedisServer, type RedisServer } from "./support/redis-server.js";

const PROCESSES = 8;
const BURST = 20;
const ENTRIES = 1_000;
const COUNT = 50; // 20 pages per process, 160 pages in all: 8 s of the budget

let redis: RedisServer;
let emu: Emulator;
beforeAll(async () => {
  redis = await startRedisServer();
  emu = await startEmulator({ seedLogs: ENTRIES, burstLimit: BURST });
});
afterAll(async () => {
  await emu?.close();
  await redis?.stop();
});

function expectEveryPage(run: MultiProcessRun): void {
  for (const child of run.children) {
    expect(child).toMatchObject({ exitCode: 0, entries: ENTRIES, keys: ENTRIES });
    expect(child.error).toBeUndefined();
  }
}

describe(`${PROCESSES} processes, burstLimit ${BURST}/s`, () => {
  it("without a shared limiter: every page arrives; the emulator counts the 429s", async () => {
    const run = await runPagers({ emulator: emu, processes: PROCESSES, count: COUNT });
    expectEveryPage(run);
    console.log(
      `without Redis: ${run.refused} 429s, ${run.accepted} pages in ${run.elapsedMs} ms ` +
        `(${run.requestsPerSecond.toFixed(1)} req/s of ${BURST})`,
    );
  }, 120_000);

  it("with the Redis limiter: 0 429s, and at least 85 % of the 20/s budget used", async () => {
    const run = await runPagers({
      emulator: emu,
      processes: PROCESSES,
      count: COUNT,
      redisUrl: redis.url,
    });
    expectEveryPage(run);
    console.log(
      `with Redis: ${run.refused} 429s, ${run.accepted} pages in ${run.elapsedMs} ms ` +
        `(${run.requestsPerSecond.toFixed(1)} req/s of ${BURST})`,
    );
    expect(run.refused).toBe(0);
    expect(run.requestsPerSecond).toBeGreaterThanOrEqual(0.85 * BURST);
  }, 120_000);

  it("Redis killed mid-run: no page lost, every process finishes", async () => {
    const run = await runPagers({
      emulator: emu,
      processes: PROCESSES,
      count: COUNT,
      redisUrl: redis.url,
      whileRunning: async () => {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        await redis.kill();
      },
    });
    expectEveryPage(run);
    await redis.restart();
  }, 120_000);
});
