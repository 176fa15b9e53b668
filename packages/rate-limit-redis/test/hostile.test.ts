// Issue 31 through Redis: no answer, reply or stall can poison the shared budget or fail a call. The
// limiter is driven directly with the answers a client would report (X1, H1, W1, W2, W3), and through
// a client against the emulator (W4); a stand-in Redis gives the replies and stalls a real one rarely
// shows (H2, K6).
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createLogsClient, type LogEvent } from "@api-clients/logs-client";
import { getEventListeners } from "node:events";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisRateLimiter, type RedisRateLimiter } from "../src/index.js";
import { context } from "./support/context.js";
import { startFakeRedis, type FakeRedis } from "./support/fake-redis.js";
import { startRedisServer, type RedisServer } from "./support/redis-server.js";

let redis: RedisServer;
let inspect: Redis;
let emu: Emulator;
/** Requests the emulator answered. */
let answered = 0;
const limiters: RedisRateLimiter[] = [];
const fakes: FakeRedis[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
  inspect = new Redis(redis.url);
  emu = await startEmulator({ seedLogs: 20, onRequest: () => answered++ });
});
afterAll(async () => {
  await Promise.all(limiters.map((l) => l.close()));
  await Promise.all(fakes.map((f) => f.close()));
  inspect?.disconnect();
  await emu?.close();
  await redis?.stop();
});

let prefixes = 0;
/** The budget keys of the latest limiter (not the sorted set of the processes sharing each). */
const budgetKeys = async () =>
  (await inspect.keys(`hostile-${prefixes}:*`)).filter((k) => !k.endsWith(":processes"));
function limiter(options: Partial<Parameters<typeof createRedisRateLimiter>[0]> = {}) {
  const created = createRedisRateLimiter({
    url: redis.url,
    keyPrefix: `hostile-${++prefixes}:`,
    ...options,
  });
  limiters.push(created);
  return created;
}

async function fake(reply: string | "stall"): Promise<FakeRedis> {
  const started = await startFakeRedis(reply);
  fakes.push(started);
  return started;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const answer = (headers: Record<string, string>, status = 200) => ({
  status,
  headers: new Headers(headers),
});

/** Reports `headers` for key "k" (waiting until the report reached Redis), then asks for a request. */
async function reportThenAcquire(l: RedisRateLimiter, headers: Record<string, string>) {
  const ctx = context();
  await l.acquire("k", ctx); // the probe: the key is new
  await l.report("k", answer(headers), ctx);
  await new Promise((resolve) => setTimeout(resolve, 20)); // the report is not awaited
  return { wait: await l.acquire("k", ctx), ctx };
}

describe("X1, H1, W1, W2: the same bounds as in process, before anything reaches Lua", () => {
  it.each([
    ["X1: a reset past a Date's range", { "burst-ratelimit-reset": "9000000000000" }],
    ["H1: Burst-RateLimit-Limit: 0", { "burst-ratelimit-limit": "0" }],
    ["W1: a burst reset a day ahead", { "burst-ratelimit-reset": String(nowSeconds() + 86_400) }],
    ["W2: a burst limit of 2^64 − 1", { "burst-ratelimit-limit": "18446744073709551615" }],
  ])("%s: the next request is granted at once, nothing of it is stored", async (_, bad) => {
    const l = limiter();
    const { wait } = await reportThenAcquire(l, {
      "burst-ratelimit-limit": "5",
      "burst-ratelimit-remaining": "0",
      "burst-ratelimit-reset": String(nowSeconds() + 1),
      ...bad,
    });
    expect(wait).toBe(0);
    const [key] = await budgetKeys();
    const stored = await inspect.hgetall(key!);
    expect(stored).not.toHaveProperty("bl");
    expect(stored).not.toHaveProperty("bt");
  });

  it("X1: a configured intervalMs of Infinity is refused when the limiter is made", () => {
    expect(() => limiter({ limit: { requests: 1, intervalMs: Infinity } })).toThrow(
      "limit: requests must be 1 to 2^31, intervalMs 1 to 2147483647",
    );
  });

  it("H1: a key lives no longer than the window it describes, and a blocked attempt does not renew it", async () => {
    const l = limiter();
    const reset = nowSeconds() + 2; // 1 to 2 s ahead: still ahead when the next request is asked
    const { wait } = await reportThenAcquire(l, {
      "burst-ratelimit-limit": "5",
      "burst-ratelimit-remaining": "0",
      "burst-ratelimit-reset": String(reset),
      "ratelimit-limit": "1000",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(reset),
    });
    expect(wait).toBeGreaterThan(0); // blocked by the daily quota until the reset
    const [key] = await budgetKeys();
    // The reset at most 2 s ahead (the next whole second), the burst window's end 1 s after it,
    // plus 2 s: at most 5 s (it was 2 days).
    const first = await inspect.pttl(key!);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(5_000);
    for (let i = 0; i < 5; i++) await l.acquire("k", context());
    expect(await inspect.pttl(key!)).toBeLessThanOrEqual(first);
  });
});

describe("W3: a call that is not sent gives back what it reserved", () => {
  it("a reservation in the next window is released when its call ends without it", async () => {
    const l = limiter();
    // 1 to 2 s ahead: "+ 1" is under 1 ms ahead near a second's end, and had passed once in CI
    const reset = (nowSeconds() + 2) * 1000;
    const { wait, ctx } = await reportThenAcquire(l, {
      "burst-ratelimit-limit": "1",
      "burst-ratelimit-remaining": "0",
      "burst-ratelimit-reset": String(reset / 1000),
    });
    expect(wait).toBeGreaterThan(0);
    const [key] = await budgetKeys();
    // The queue's count of the window after the reset (keyed by that window's reset).
    const next = `bv${reset + 1000}`;
    expect(await inspect.hget(key!, next)).toBe("1");
    ctx.controller.abort(); // the call ended: refused by its deadline, or aborted
    await expect.poll(() => inspect.hget(key!, next), { timeout: 2_000 }).toBe(null);
  });
});

describe("H2, W4: a stalled Redis costs no call its deadline, and is not waited on every attempt", () => {
  it("H2: after 3 failures in a row the limiter stops asking (20 attempts: 3 scripts sent), with one warning for the cause and one for the back-off", async () => {
    const stalled = await fake("stall");
    const l = limiter({ url: stalled.url, commandTimeoutMs: 50 });
    const ctx = context();
    for (let i = 0; i < 20; i++) expect(await l.acquire("k", ctx)).toBe(0);
    expect(stalled.scripts).toBe(3);
    expect(ctx.warnings).toEqual([
      expect.stringMatching(
        /^rate limiter: Redis at 127\.0\.0\.1:\d+ did not answer within 50 ms; this attempt is paced by this process alone/,
      ),
      expect.stringMatching(
        /^rate limiter: Redis at 127\.0\.0\.1:\d+ failed several times in a row; for the next 1 s this process paces alone without asking it, then tries it again$/,
      ),
    ]);
  });

  it("W4: 8 calls with deadlineMs 300 on a stalled Redis are all sent: none fails for Redis", async () => {
    const stalled = await fake("stall");
    const l = limiter({ url: stalled.url });
    const logs = createLogsClient({
      token: emu.credentials.logsToken,
      baseUrl: emu.url,
      rateLimiter: l,
    });
    await createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url }).list({
      count: 1,
    });
    answered = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => logs.list({ count: 1 }, { deadlineMs: 300 })),
    );
    // Every call was sent: none fails for Redis ("not sent", "no time left"). A call whose attempt
    // was still in flight at 300 ms on this loaded machine is the server's time, not Redis's.
    await expect.poll(() => answered).toBe(8);
    for (const result of results) {
      if (result.status === "rejected") {
        expect(String(result.reason)).toContain("the attempt in flight was stopped");
      }
    }
  });
});

describe("K6: replies of the wrong type or size are refused with one warning each; the call paces locally", () => {
  it.each([
    ["+OK", "+OK\r\n", '"OK"'],
    ["an integer", ":1\r\n", "1"],
    ["nil", "$-1\r\n", "null"],
    [
      "a wait of 27 hours",
      "*7\r\n:99999999\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:1\r\n",
      "[99999999,0,0,0,0,0,1]",
    ],
    [
      "200,000 processes sharing",
      "*7\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:200000\r\n",
      "[0,0,0,0,0,0,200000]",
    ],
    ["the old six-number reply", "*6\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n", "[0,0,0,0,0,0]"],
    ["the old two-number reply", "*2\r\n:99999999\r\n:0\r\n", "[99999999,0]"],
  ])("%s", async (_, reply, shown) => {
    const hostile = await fake(reply);
    const l = limiter({ url: hostile.url });
    const ctx = context();
    for (let i = 0; i < 5; i++) expect(await l.acquire("k", ctx)).toBe(0);
    expect(ctx.warnings[0]).toMatch(
      new RegExp(
        `^rate limiter: Redis at 127\\.0\\.0\\.1:\\d+ answered the budget script with ${shown.replace(/[[\]]/g, "\\$&")}, not a wait; this attempt is paced by this process alone`,
      ),
    );
    expect(ctx.warnings).toHaveLength(2); // the cause, then the back-off after 3 in a row
  });

  it("a key of another type: says so (not 'unreachable'), once", async () => {
    const l = limiter();
    const ctx = context();
    await l.acquire("k", ctx);
    const [key] = await budgetKeys();
    await inspect.del(key!);
    await inspect.set(key!, "not a hash");
    for (let i = 0; i < 2; i++) expect(await l.acquire("k", ctx)).toBe(0);
    expect(ctx.warnings).toEqual([
      `rate limiter: Redis at 127.0.0.1:${redis.port} holds a value that is not a budget at ${key} ` +
        "(WRONGTYPE; delete the key); this attempt is paced by this process alone (the budget is not shared for it)",
    ]);
  });

  it("a Redis that refuses connections: no library jargon in the warning", async () => {
    const events: LogEvent[] = [];
    const l = limiter({ url: "redis://127.0.0.1:1" });
    const logs = createLogsClient({
      token: emu.credentials.logsToken,
      baseUrl: emu.url,
      rateLimiter: l,
      logger: (e) => events.push(e),
    });
    await logs.list({ count: 1 });
    const warnings = events.filter((e) => e.type === "warning").map((e) => e.message);
    expect(warnings).toEqual([
      "rate limiter: Redis at 127.0.0.1:1 cannot be reached (connection refused, closed or not ready); " +
        "this attempt is paced by this process alone (the budget is not shared for it)",
    ]);
  });
});

describe("Redis gone: each process paces alone at its last known share, not at the whole limit", () => {
  const GO_FOR_4 = "*7\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:4\r\n";
  const burst20 = () =>
    answer({
      "burst-ratelimit-limit": "20",
      "burst-ratelimit-remaining": "19",
      "burst-ratelimit-reset": String(nowSeconds() + 1),
    });

  it("4 processes seen, burst limit 20: 20 / 4 = 5 requests a burst window (a second), then a wait for the next", async () => {
    const stand = await fake(GO_FOR_4);
    const l = limiter({ url: stand.url });
    const ctx = context();
    expect(await l.acquire("k", ctx)).toBe(0); // shared: Redis says go, 4 processes ask
    await l.report("k", burst20(), ctx);
    stand.answer("+OK\r\n"); // Redis can no longer decide
    // Start at the beginning of a second, so the 6 asks fall in one burst window.
    await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
    const before = Date.now();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) waits.push(await l.acquire("k", ctx));
    const after = Date.now();
    expect(Math.floor(after / 1_000)).toBe(Math.floor(before / 1_000)); // one window
    const nextWindow = Math.ceil(after / 1_000) * 1_000;
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(waits[5]).toBeGreaterThanOrEqual(nextWindow - after);
    expect(waits[5]).toBeLessThanOrEqual(nextWindow - before);
    expect(ctx.warnings[0]).toContain("this attempt is paced by this process alone");
  });

  it("1 process seen: the whole limit (the in-process gate alone, no spacing)", async () => {
    const stand = await fake("*7\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:1\r\n");
    const l = limiter({ url: stand.url });
    const ctx = context();
    expect(await l.acquire("k", ctx)).toBe(0);
    await l.report("k", burst20(), ctx);
    stand.answer("+OK\r\n");
    for (let i = 0; i < 3; i++) expect(await l.acquire("k", ctx)).toBe(0);
  });
});

it("a call that asks Redis 20 times leaves no listener on its signal (no MaxListenersExceededWarning)", async () => {
  const stand = await fake("*7\r\n:1\r\n:0\r\n:0\r\n:0\r\n:0\r\n:0\r\n:1\r\n"); // ask again in 1 ms
  const l = limiter({ url: stand.url });
  const ctx = context();
  for (let i = 0; i < 20; i++) expect(await l.acquire("k", ctx)).toBe(1);
  expect(getEventListeners(ctx.signal, "abort")).toHaveLength(0);
});
