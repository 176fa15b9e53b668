/**
 * `@api-clients/rate-limit-redis`: one rate-limit budget for every instance of a service, kept in
 * Redis. Pass `createRedisRateLimiter({ url })` as the `rateLimiter` of each client: each attempt takes
 * a request from the shared budget atomically (one Lua script per attempt), and each answer's
 * `Burst-RateLimit-*` / `RateLimit-*` headers update it. When Redis cannot be reached, each process
 * falls back to its own in-process gate (a `warning` log event says so) until Redis answers again.
 *
 * @packageDocumentation
 */
import {
  createRateLimiter,
  type ConfiguredLimit,
  type RateLimitAnswer,
  type RateLimitContext,
  type RateLimiter,
} from "@api-clients/core";
import { BURST_WINDOW_MS, readWindow, refusingWindow } from "@api-clients/core/internal";
import { Redis } from "ioredis";
import { ACQUIRE_SCRIPT, REPORT_SCRIPT, ZONE_MS } from "./scripts.js";

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions {
  /** Redis URL, e.g. `redis://127.0.0.1:6379` (`rediss://` for TLS; credentials in the URL). */
  url: string;
  /**
   * Prefix of the Redis keys; one hash per API and account below it (`<prefix><key>`).
   * @default "api-clients:rate-limit:"
   */
  keyPrefix?: string;
  /**
   * A limit to keep even when the answers state none (the management API states no limits), shared
   * like the ones the server states.
   * @default none: only the limits the server reports
   */
  limit?: ConfiguredLimit;
  /**
   * Longest wait for one Redis command, in milliseconds; past it (or while Redis is unreachable) the
   * in-process gate decides. A call never waits longer than its own deadline either.
   * @default 500
   */
  commandTimeoutMs?: number;
}

/** A {@link RateLimiter} sharing its budget through Redis; `close()` ends its connection. */
export interface RedisRateLimiter extends RateLimiter {
  /** Closes the Redis connection (pending commands fail over to the in-process gate). */
  close(): Promise<void>;
}

/** The commands the scripts add to the client. */
interface ScriptedRedis extends Redis {
  rateLimitAcquire(key: string, ...args: (string | number)[]): Promise<[number, number]>;
  rateLimitReport(key: string, ...args: (string | number)[]): Promise<number>;
}

/** How long the first command waits for the connection to be ready, in milliseconds. */
const FIRST_CONNECT_MS = 2_000;

/** `host:port` of a Redis URL, for messages (never its credentials). */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.host;
  } catch {
    return "(invalid URL)";
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves or rejects with `promise`, or rejects once `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** One window of an answer as the report script takes it: limit, remaining, resetAt ('' when not stated). */
function windowArgs(answer: RateLimitAnswer, scope: "burst" | "daily", now: number): string[] {
  const stated = readWindow(answer.headers, scope, now);
  if (stated === undefined) return ["", "", ""];
  const refused = answer.status === 429 && refusingWindow(answer.headers, now).scope === scope;
  const remaining = refused ? 0 : stated.remaining;
  return [stated.limit, remaining, stated.resetAt].map((v) => (v === undefined ? "" : String(v)));
}

/**
 * Creates a rate limiter whose budget lives in Redis, shared by every client (and process) that uses
 * the same Redis and key prefix: keyed by API and account, learnt from the service's headers.
 *
 * @example
 * const rateLimiter = createRedisRateLimiter({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" });
 * const logs = createLogsClient({ token, rateLimiter });
 * // … on shutdown:
 * await rateLimiter.close();
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  if (typeof options?.url !== "string" || !/^rediss?:\/\//.test(options.url)) {
    throw new TypeError("url: must be a redis:// or rediss:// URL");
  }
  const prefix = options.keyPrefix ?? "api-clients:rate-limit:";
  const limit = options.limit;
  const local = createRateLimiter(limit === undefined ? {} : { limit });
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    lazyConnect: true,
    retryStrategy: (times) => Math.min(100 * times, 1_000),
  }) as ScriptedRedis;
  redis.defineCommand("rateLimitAcquire", { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
  redis.defineCommand("rateLimitReport", { numberOfKeys: 1, lua: REPORT_SCRIPT });
  // Errors arrive as rejected commands; without a listener ioredis would print each one.
  redis.on("error", () => undefined);
  const connecting = redis.connect().catch(() => undefined);
  let firstCommand: Promise<unknown> | undefined;
  let fallingBack = false;
  let closed = false;

  /** Runs a command on Redis; on failure, says once that the in-process gate decides until it recovers. */
  async function shared<T>(
    command: () => Promise<T>,
    context: RateLimitContext,
  ): Promise<T | undefined> {
    if (closed) return undefined;
    firstCommand ??= Promise.race([
      connecting,
      new Promise((resolve) => setTimeout(resolve, FIRST_CONNECT_MS).unref?.()),
    ]);
    try {
      await untilAborted(firstCommand, context.signal);
      const result = await untilAborted(command(), context.signal);
      if (fallingBack) {
        fallingBack = false;
        context.warn(`rate limiter: Redis at ${where(options.url)} answers again; budget shared`);
      }
      return result;
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (!fallingBack) {
        fallingBack = true;
        context.warn(
          `rate limiter: Redis at ${where(options.url)} unreachable (${describe(error)}); ` +
            "using the in-process gate until it answers",
        );
      }
      return undefined;
    }
  }

  /** Slots reserved in a window that had not opened yet, per key: when each opens (this process's clock). */
  const reserved = new Map<string, number[]>();
  /** Takes a reserved slot of `key` whose window has opened and is still early enough to land in it. */
  function takeReserved(key: string, now: number): boolean {
    const slots = reserved.get(key);
    if (slots === undefined) return false;
    const fresh = slots.filter((at) => now < at + BURST_WINDOW_MS - ZONE_MS);
    const ready = fresh.findIndex((at) => now >= at);
    if (ready >= 0) fresh.splice(ready, 1);
    if (fresh.length > 0) reserved.set(key, fresh);
    else reserved.delete(key);
    return ready >= 0;
  }

  return {
    async acquire(key, context) {
      if (takeReserved(key, Date.now())) return 0;
      const answer = await shared(
        () =>
          redis.rateLimitAcquire(
            prefix + key,
            BURST_WINDOW_MS,
            limit?.requests ?? "",
            limit?.intervalMs ?? "",
          ),
        context,
      );
      if (answer === undefined) return local.acquire(key, context);
      const [wait, isReserved] = answer;
      if (isReserved === 1) {
        // The slot is ours once its window opens: the next ask after the wait takes it without Redis.
        const slots = reserved.get(key) ?? [];
        slots.push(Date.now() + wait);
        reserved.set(key, slots);
      }
      return wait;
    },
    async report(key, answer, context) {
      // The in-process gate always learns too, so it is current when it has to decide.
      await local.report(key, answer, context);
      if (closed || redis.status !== "ready") return;
      // Not awaited: the next acquire of this process runs after it on the same connection, and a
      // failing Redis is noticed (and said) by that acquire.
      const now = Date.now();
      redis
        .rateLimitReport(
          prefix + key,
          ...windowArgs(answer, "burst", now),
          ...windowArgs(answer, "daily", now),
          BURST_WINDOW_MS,
        )
        .catch(() => undefined);
    },
    async close() {
      closed = true;
      redis.disconnect();
    },
  };
}
