// The shared budget's queue: when the burst window is full, each caller takes the next slot of the
// windows to come, in asking order, and is told its exact time (on Redis's clock): its window's
// opening plus its place in the window (a window's requests go out in asking order over the first
// 250 ms, a quarter of it: with limit 2 the second 125 ms after the first); the slot is
// its own (it sends in it without asking again), and a call that ends without sending gives back its
// slot in the window it took. Driven through the limiter, as a client drives it, on a real
// redis-server; the windows are read from the waits and from the budget's hash, never from timers.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisRateLimiter, type RedisRateLimiter } from "../src/index.js";
import { context } from "./support/context.js";
import { startRedisServer, type RedisServer } from "./support/redis-server.js";

let redis: RedisServer;
let inspect: Redis;
const limiters: RedisRateLimiter[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
  inspect = new Redis(redis.url);
});
afterAll(async () => {
  await Promise.all(limiters.map((l) => l.close()));
  inspect?.disconnect();
  await redis?.stop();
});

/** Redis's clock, in Unix ms (the clock the queue's windows are on). */
async function redisNow(): Promise<number> {
  const [seconds, micros] = await inspect.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

let prefixes = 0;
/**
 * A limiter on a fresh key whose burst window (limit 2, both left) ends at `reset`, 1 to 2 s ahead;
 * the budget's hash, and a function that asks for one request per new call, in sequence, returning
 * each wait with Redis's clock just before and after the asks.
 */
async function budgetOfTwo() {
  const prefix = `fifo-${++prefixes}:`;
  const l = createRedisRateLimiter({ url: redis.url, keyPrefix: prefix });
  limiters.push(l);
  const probe = context();
  await l.acquire("k", probe); // the probe: the key is new
  // 1 to 2 s ahead (the longest a burst reset may be trusted), in whole seconds as the service says it.
  const reset = (Math.floor(Date.now() / 1000) + 2) * 1000;
  await l.report(
    "k",
    {
      status: 200,
      headers: new Headers({
        "burst-ratelimit-limit": "2",
        "burst-ratelimit-remaining": "2",
        "burst-ratelimit-reset": String(reset / 1000),
      }),
    },
    probe,
  );
  const [key] = (await inspect.keys(`${prefix}*`)).filter((k) => !k.endsWith(":processes"));
  const hash = () => inspect.hgetall(key!);
  async function ask(calls: ReturnType<typeof context>[]) {
    const before = await redisNow();
    const waits: number[] = [];
    for (const call of calls) waits.push(await l.acquire("k", call));
    const after = await redisNow();
    return { waits, before, after };
  }
  return { l, reset, hash, ask };
}

/**
 * Whether a wait told between `before` and `after` (Redis's clock) ends at `at`: the wait is rounded
 * up to a whole millisecond.
 */
function endsAt(wait: number, at: number, before: number, after: number): boolean {
  return endsBetween(wait, at, at, before, after);
}

/** Whether a wait told between `before` and `after` (Redis's clock) ends from `from` to `to`. */
function endsBetween(
  wait: number,
  from: number,
  to: number,
  before: number,
  after: number,
): boolean {
  return before + wait <= to + 1 && after + wait >= from;
}

describe("the queue over the windows to come (GCRA-style: its tail window and the slots of it taken)", () => {
  it("limit 2, 6 callers asking in sequence in one window: 0, 0, the next window ×2, the one after ×2, in asking order", async () => {
    const { reset, hash, ask } = await budgetOfTwo();
    const calls = Array.from({ length: 6 }, context);
    const { waits, before, after } = await ask(calls);
    expect(after - before).toBeLessThan(500); // the asks took less than half a window
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    // The window each later caller is sent in opens at the reset, then a second after it; the
    // second request of each goes 125 ms after the first.
    const opens = [reset, reset + 125, reset + 1000, reset + 1125];
    expect(waits.slice(2).map((wait, i) => endsAt(wait, opens[i]!, before, after))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // The queue: two slots taken in each window to come (keyed by its reset), the tail in the second.
    expect(await hash()).toMatchObject({
      [`bv${reset + 1000}`]: "2",
      [`bv${reset + 2000}`]: "2",
      bq: String(reset + 2000),
    });
  });

  it("a caller asking again before its window opens keeps its slot: the rest of its wait, nothing new taken", async () => {
    const { reset, hash, ask } = await budgetOfTwo();
    const calls = Array.from({ length: 3 }, context);
    const first = await ask(calls);
    const again = await ask([calls[2]!]);
    // Its slot opens at the reset, on Redis's clock; the limiter dates it from the reply's arrival
    // (never early), so it ends no later than the reset plus the first asks' round trip.
    const latest = reset + (first.after - first.before);
    expect(endsBetween(again.waits[0]!, reset, latest, again.before, again.after)).toBe(true);
    const stored = await hash();
    expect(stored[`bv${reset + 1000}`]).toBe("1");
    expect(stored).not.toHaveProperty(`bv${reset + 2000}`);
  });

  it("a call that ends without sending gives back its slot in the window it took; the next caller takes the tail's", async () => {
    const { reset, hash, ask } = await budgetOfTwo();
    const calls = Array.from({ length: 6 }, context);
    await ask(calls);
    calls[2]!.controller.abort(); // the call ended (refused by its deadline, or aborted): window 1
    calls[5]!.controller.abort(); // the same, in window 2 (the tail)
    await expect
      .poll(async () => {
        const stored = await hash();
        return [stored[`bv${reset + 1000}`], stored[`bv${reset + 2000}`]];
      })
      .toEqual(["1", "1"]);
    // The tail has room again: the next caller takes it (the window opening a second after the reset,
    // its second place).
    const next = await ask([context()]);
    expect(endsAt(next.waits[0]!, reset + 1125, next.before, next.after)).toBe(true);
    expect(await hash()).toMatchObject({ [`bv${reset + 2000}`]: "2", bq: String(reset + 2000) });
  });
});
