// Issue 31, the overshoot when Redis dies and comes back: no burst window is spent twice.
// - While Redis is gone, a process sends nothing alone in a window Redis handed out (the requests it
//   let through, this process's queued slots included, fill it).
// - A process back from pacing alone tells Redis how many processes shared the budget before, and
//   what it sent alone in the current window: Redis counts what it sent, and keeps the room of the
//   processes not back yet (their share of the burst limit) out of the window.
// The first part drives the limiter against a stand-in Redis on controlled time (`Date` only: the
// sockets run on real timers); the second runs the acquire script on a real redis-server.
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createRedisRateLimiter, type RedisRateLimiter } from "../src/index.js";
import { ACQUIRE_SCRIPT, REPORT_SCRIPT } from "../src/scripts.js";
import { context } from "./support/context.js";
import { startFakeRedis, type FakeRedis } from "./support/fake-redis.js";
import { startRedisServer, type RedisServer } from "./support/redis-server.js";

let redis: RedisServer;
const limiters: RedisRateLimiter[] = [];
const fakes: FakeRedis[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await Promise.all(limiters.map((l) => l.close()));
  await Promise.all(fakes.map((f) => f.close()));
  await redis?.stop();
});

/** The acquire script's reply as RESP: seven integers. */
const reply = (...numbers: number[]) => `*7\r\n${numbers.map((n) => `:${n}\r\n`).join("")}`;

describe("the limiter: what it sends alone, and what it tells Redis when it answers again", () => {
  /** A second boundary on the controlled clock (Unix ms); the run starts 100 ms into it. */
  const SECOND = 1_800_000_000_000;
  /** The acquire script's ARGV (after EVALSHA, the sha, the key count and the two keys). */
  const argv = (args: readonly string[] | undefined) => args?.slice(5) ?? [];

  it("Redis gone: nothing is sent alone before the windows Redis handed out end; then the share, and Redis back is told the count and what was sent", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: SECOND + 100 });
    const stand = await startFakeRedis(reply(300, 1, 2, SECOND + 1_000, 0, 0, 4));
    fakes.push(stand);
    const l = createRedisRateLimiter({ url: stand.url, keyPrefix: "death:" });
    limiters.push(l);
    const queued = context();
    // Redis hands this call a slot 300 ms ahead (4 processes share the budget).
    expect(await l.acquire("k", queued)).toBe(300);
    const burst = {
      "burst-ratelimit-limit": "20",
      "burst-ratelimit-remaining": "0",
      "burst-ratelimit-reset": String(SECOND / 1000 + 1),
    };
    await l.report("k", { status: 200, headers: new Headers(burst) }, queued);
    stand.answer("+OK\r\n"); // Redis can no longer decide
    const other = context();
    // The slot's window (SECOND … SECOND + 1000) was handed out: alone, wait until it ends, 900 ms
    // (the code before sent at once, its share of 5 on top of the window's 20).
    expect(await l.acquire("k", other)).toBe(900);
    expect(other.warnings[0]).toContain("this attempt is paced by this process alone");
    // Two more failures in a row: the breaker stops asking Redis until SECOND + 1100.
    expect(await l.acquire("k", other)).toBe(900);
    expect(await l.acquire("k", other)).toBe(900);
    expect(other.warnings[1]).toContain("for the next 1 s this process paces alone");
    vi.setSystemTime(SECOND + 1_000);
    // The next window: this process's share alone, 20 / 4 = 5 (the in-process gate learnt the window).
    for (let i = 0; i < 5; i++) expect(await l.acquire("k", context())).toBe(0);
    const sixth = context();
    expect(await l.acquire("k", sixth)).toBe(1_000);
    // Redis answers the breaker's probe: the ask tells it 4 processes shared the budget, and the 5
    // requests sent alone in the window that ends at SECOND + 2000.
    stand.answer(reply(0, 0, 0, 0, 0, 0, 1));
    vi.setSystemTime(SECOND + 1_100);
    expect(await l.acquire("k", sixth)).toBe(0);
    expect(argv(stand.received.at(-1))).toEqual([
      "1000",
      "",
      "",
      expect.any(String),
      "4",
      "5",
      String(SECOND + 2_000),
    ]);
    // For as long as a process counts as sharing (2 s), the count is told; what was sent is not again.
    vi.setSystemTime(SECOND + 3_099);
    await l.acquire("k", context());
    expect(argv(stand.received.at(-1)).slice(4, 6)).toEqual(["4", ""]);
    vi.setSystemTime(SECOND + 3_101);
    await l.acquire("k", context());
    expect(argv(stand.received.at(-1)).slice(4, 6)).toEqual(["", ""]);
  });
});

describe("the acquire script: the room of processes still alone, and what they sent alone", () => {
  let inspect: Redis & {
    acquire(...args: (string | number)[]): Promise<number[]>;
    report(...args: (string | number)[]): Promise<number>;
  };
  beforeAll(() => {
    inspect = new Redis(redis.url) as typeof inspect;
    inspect.defineCommand("acquire", { numberOfKeys: 2, lua: ACQUIRE_SCRIPT });
    inspect.defineCommand("report", { numberOfKeys: 1, lua: REPORT_SCRIPT });
  });
  afterAll(() => inspect?.disconnect());

  let keys = 0;
  /**
   * A fresh budget whose burst window (limit 20, all left) ends in 1 to 2 s; `ask` takes one request
   * for process `id`, telling `told` processes and `sent` requests sent alone in this window, and
   * says where it went: the current window, or the queue of a window to come.
   */
  async function budgetOf20() {
    const key = `death-script-${++keys}`;
    const processes = `${key}:processes`;
    const reset = (Math.floor(Date.now() / 1000) + 2) * 1000;
    await inspect.acquire(key, processes, 1000, "", "", "probe", "", "", ""); // the probe
    await inspect.report(key, 20, 20, reset, "", "", "", 1000);
    return async (id: string, told = "", sent = "") => {
      const [wait, reserved, kind] = await inspect.acquire(
        key,
        processes,
        1000,
        "",
        "",
        id,
        told,
        sent,
        sent === "" ? "" : reset,
      );
      return reserved === 1 && kind === 2 ? "queue" : wait === 0 || kind === 1 ? "window" : "wait";
    };
  }
  const asks = async (ask: () => Promise<string>, n: number) => {
    const places: string[] = [];
    for (let i = 0; i < n; i++) places.push(await ask());
    return places;
  };

  it("without word of other processes: the window's 20 (the 21st is queued)", async () => {
    const ask = await budgetOf20();
    // The probe and the process asking: 2 seen lately.
    expect(await asks(() => ask("p1"), 21)).toEqual([...Array(20).fill("window"), "queue"]);
  });

  it("4 processes shared it, 2 are back: the 2 still alone keep 2 × 20/4 = 10; the 11th is queued", async () => {
    const ask = await budgetOf20();
    // "probe" and "p1" asked lately (2 active); p1 says 4 shared the budget before.
    expect(await asks(() => ask("p1", "4"), 11)).toEqual([...Array(10).fill("window"), "queue"]);
  });

  it("once as many ask again as shared before, nothing is kept", async () => {
    const ask = await budgetOf20();
    await ask("p2");
    await ask("p3");
    expect(await asks(() => ask("p1", "4"), 19)).toEqual([...Array(18).fill("window"), "queue"]);
  });

  it("7 requests sent alone in this window count in it: 13 left, the 14th is queued", async () => {
    const ask = await budgetOf20();
    const places = [await ask("p1", "", "7"), ...(await asks(() => ask("p1"), 13))];
    expect(places).toEqual([...Array(13).fill("window"), "queue"]);
  });
});
