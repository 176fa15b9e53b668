// 10,000 random rate-limit header sets (valid, hostile and mixed) through the Redis limiter, each on a
// budget of its own: nothing throws, no reply asks for a wait longer than the longest burst reset a
// client may trust (2 s) unless the set validly states a used-up daily quota (then until its reset),
// no key outlives the windows it holds.
import { readWindow } from "@api-clients/core/internal";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRedisRateLimiter, type RedisRateLimiter } from "../src/index.js";
import { randomHeaderSet, seeded } from "../../core/test/support/random-headers.js";
import { startRedisServer, type RedisServer } from "./support/redis-server.js";

const SETS = 10_000;
let redis: RedisServer;
let limiter: RedisRateLimiter;
beforeAll(async () => {
  redis = await startRedisServer();
  limiter = createRedisRateLimiter({ url: redis.url, keyPrefix: "fuzz:" });
});
afterAll(async () => {
  await limiter?.close();
  await redis?.stop();
});

it(`${SETS.toLocaleString("en")} random header sets: 0 throws, 0 waits over 2 s (but for a used-up daily quota), 0 keys past a day and 4 s`, async () => {
  const random = seeded(3_131);
  const warnings: string[] = [];
  const figures = { thrown: [] as unknown[], longWaits: [] as number[], longest: 0 };
  let next = 0;
  const worker = async () => {
    while (next < SETS) {
      const i = next++;
      const set = randomHeaderSet(random, Date.now());
      const context = {
        signal: new AbortController().signal,
        warn: (m: string) => warnings.push(m),
      };
      try {
        await limiter.acquire(`k${i}`, context); // the probe of a new budget
        await limiter.report(
          `k${i}`,
          { status: set.status, headers: new Headers(set.headers) },
          context,
        );
        // Sent after the report on the same connection: Redis runs it after the report.
        const wait = await limiter.acquire(`k${i}`, context);
        // Longer than 2 s only for a daily quota the set states, validly, as used up: until its reset.
        const daily = readWindow(new Headers(set.headers), "daily", Date.now());
        const usedUp = daily?.remaining === 0 && daily.resetAt !== undefined;
        const longest = usedUp ? Math.max(2_000, daily.resetAt! - Date.now() + 1_000) : 2_000;
        if (!usedUp) figures.longest = Math.max(figures.longest, wait);
        if (!(wait >= 0 && wait <= longest)) figures.longWaits.push(wait);
      } catch (error) {
        figures.thrown.push(error);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: 16 }, worker));
  const inspect = new Redis(redis.url);
  try {
    const keys = await inspect.keys("fuzz:*");
    const ttls = await Promise.all(keys.slice(0, 2_000).map((k) => inspect.pttl(k)));
    console.log(
      `Redis: ${SETS} sets in ${Math.round(performance.now() - started)} ms, longest wait ` +
        `${figures.longest} ms (daily quotas used up aside), ${keys.length} keys alive, longest TTL ${Math.max(...ttls)} ms`,
    );
    expect(figures.thrown).toEqual([]);
    expect(figures.longWaits).toEqual([]);
    expect(warnings).toEqual([]);
    // -2: expired since KEYS listed it; -1 would be a key without an expiry.
    expect(ttls.filter((ttl) => ttl === -1 || ttl > 86_400_000 + 4_000)).toEqual([]);
  } finally {
    inspect.disconnect();
  }
}, 60_000);
