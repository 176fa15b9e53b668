import { nextBurstWindow, startEmulator, type Emulator } from "@api-clients/emulator";
import { createLogsClient, type LogEvent } from "@api-clients/logs-client";
import { Redis } from "ioredis";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRedisRateLimiter, type RedisRateLimiter } from "../src/index.js";
import { timerLateness } from "../../core/test/support/timing.js";
import { startRedisServer, type RedisServer } from "./support/redis-server.js";

let redis: RedisServer;
let emu: Emulator;
const limiters: RedisRateLimiter[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
  emu = await startEmulator({ seedLogs: 100, burstLimit: 5, logsToken: "tok_SECRET_123" });
});
afterAll(async () => {
  await Promise.all(limiters.map((l) => l.close()));
  await emu?.close();
  await redis?.stop();
});
beforeEach(() => emu.reset());

function limiter(options: Partial<Parameters<typeof createRedisRateLimiter>[0]> = {}) {
  const created = createRedisRateLimiter({ url: redis.url, keyPrefix: "test:", ...options });
  limiters.push(created);
  return created;
}

const client = (rateLimiter: RedisRateLimiter, logger?: (e: LogEvent) => void) =>
  createLogsClient({
    token: "tok_SECRET_123",
    baseUrl: emu.url,
    rateLimiter,
    ...(logger ? { logger } : {}),
  });

describe("createRedisRateLimiter", () => {
  it("two limiters (as two processes would have) share one budget: 30 concurrent calls, no 429", async () => {
    const a = client(limiter());
    const b = client(limiter());
    // Early in a second, so that only the limiter's own waits cross a burst window's end (a call sent
    // in a second's last moments is counted by the emulator in the next one).
    await nextBurstWindow();
    await a.list({ count: 1 }); // the budget learns the limit from the headers
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).list({ count: 1 }, { maxRetries: 0 })),
    );
    expect(emu.rateLimits).toEqual({ accepted: 31, refused: 0 });
  });

  it("keys by API and account under the prefix, never with the credentials in them", async () => {
    await client(limiter({ keyPrefix: "keys:" })).list({ count: 1 });
    const inspect = new Redis(redis.url);
    try {
      const keys = await inspect.keys("*");
      expect(keys.some((k) => k.startsWith("keys:"))).toBe(true);
      for (const key of keys) {
        expect(key).not.toContain("SECRET");
        // The budget (a hash) and the processes sharing it (a sorted set of random ids).
        const stored =
          (await inspect.type(key)) === "hash"
            ? await inspect.hgetall(key)
            : await inspect.zrange(key, 0, -1);
        expect(JSON.stringify(stored)).not.toContain("SECRET");
      }
      const [key] = keys.filter((k) => k.startsWith("keys:") && !k.endsWith(":processes"));
      expect(await inspect.hgetall(key!)).toMatchObject({ bl: "5" });
    } finally {
      inspect.disconnect();
    }
  });

  it("a configured limit is shared too (the management API states none)", async () => {
    const open = await startEmulator({ seedLogs: 10 });
    try {
      const limit = { requests: 3, intervalMs: 1_000 };
      const prefix = `configured-${Date.now()}:`;
      const make = () =>
        createLogsClient({
          token: open.credentials.logsToken,
          baseUrl: open.url,
          rateLimiter: limiter({ keyPrefix: prefix, limit }),
        });
      const [a, b] = [make(), make()];
      const started = Date.now();
      await Promise.all(Array.from({ length: 9 }, (_, i) => (i % 2 ? a : b).list({ count: 1 })));
      // 9 requests at 3 a second: the third window opens 2 s after the first.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_950);
    } finally {
      await open.close();
    }
  });

  it("survives a Redis restart: falls back to the in-process gate, says so, and shares again after", async () => {
    const events: LogEvent[] = [];
    const logs = client(limiter(), (e) => events.push(e));
    await logs.list({ count: 1 });
    await redis.kill();
    for (let i = 0; i < 8; i++) await logs.list({ count: 1 });
    const warnings = () => events.filter((e) => e.type === "warning").map((e) => e.message);
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^rate limiter: Redis at 127\.0\.0\.1:\d+ cannot be reached \(connection refused, closed or not ready\); this attempt is paced by this process alone \(the budget is not shared for it\)$/,
      ),
      expect.stringMatching(
        /failed several times in a row; for the next 1 s this process paces alone/,
      ),
    ]);
    expect(emu.rateLimits.refused).toBe(0);
    await redis.restart();
    await expect
      .poll(
        async () => {
          await logs.list({ count: 1 });
          return warnings().length;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeGreaterThanOrEqual(3);
    expect(warnings().at(-1)).toMatch(/answers again; the budget is shared again$/);
  });

  it("a connection lost since the last ask is said at the next answer it cannot share, once", async () => {
    const l = limiter({ keyPrefix: "lost:" });
    const warnings: string[] = [];
    const context = { signal: new AbortController().signal, warn: (m: string) => warnings.push(m) };
    const answer = { status: 200, headers: new Headers() };
    expect(await l.acquire("k", context)).toBe(0); // connected, and asked
    await redis.kill();
    try {
      // The connection's loss reaches the client as its socket closes: the first report after it says so.
      await expect
        .poll(async () => {
          await l.report("k", answer, context);
          return warnings.length;
        })
        .toBe(1);
      for (let i = 0; i < 3; i++) await l.report("k", answer, context);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^rate limiter: Redis at 127\.0\.0\.1:\d+ cannot be reached \(connection lost\); this process paces alone until it answers again \(the budget is not shared meanwhile\)$/,
        ),
      ]);
    } finally {
      await redis.restart();
    }
  });

  it("a Redis that never answers: the call is sent within its deadline (a quarter of it spent waiting)", async () => {
    // Accepts connections and never answers: the limiter waits a quarter of the deadline, then paces alone.
    const sockets = new Set<Socket>();
    const blackHole = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    const { port } = blackHole.address() as AddressInfo;
    const silent = limiter({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 60_000 });
    try {
      const started = performance.now();
      const lateness = timerLateness(800);
      const page = await client(silent).list({ count: 1 }, { deadlineMs: 800 });
      expect(page.events).toHaveLength(1);
      // Within the deadline, not the limiter's 2 s wait for a first connection (nor its 60 s command timeout).
      expect(performance.now() - started).toBeLessThan(1_500 + (await lateness));
    } finally {
      for (const socket of sockets) socket.destroy();
      blackHole.close();
    }
  });

  it("a Redis that refuses connections: the call goes ahead on the in-process gate, with a warning", async () => {
    const events: LogEvent[] = [];
    const refused = limiter({ url: "redis://127.0.0.1:1" });
    await client(refused, (e) => events.push(e)).list({ count: 1 });
    expect(events.filter((e) => e.type === "warning")).toHaveLength(1);
  });

  it("rejects a URL that is not redis:// or rediss://", () => {
    expect(() => createRedisRateLimiter({ url: "http://x" })).toThrow(
      "url: must be a redis:// or rediss:// URL",
    );
  });
});
