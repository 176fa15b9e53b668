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
import {
  BURST_WINDOW_MS,
  checkConfiguredLimit,
  MAX_RESET_AHEAD_MS,
  readWindow,
  refusingWindow,
  remainingMs,
  shown,
} from "@api-clients/core/internal";
import { Redis } from "ioredis";
import { Breaker } from "./breaker.js";
import {
  ACQUIRE_SCRIPT,
  ACTIVE_MS,
  MAX_PROCESSES,
  RELEASE_SCRIPT,
  REPORT_SCRIPT,
  SPREAD_SHARE,
  ZONE_MS,
} from "./scripts.js";

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
   * in-process gate decides. A call waits on Redis at most a quarter of what is left of its deadline.
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
  rateLimitAcquire(key: string, ...args: (string | number)[]): Promise<unknown>;
  rateLimitReport(key: string, ...args: (string | number)[]): Promise<unknown>;
  rateLimitRelease(key: string, ...args: (string | number)[]): Promise<unknown>;
}

/** How long the first command waits for the connection to be ready, in milliseconds. */
const FIRST_CONNECT_MS = 2_000;

/** A call waits on Redis at most this share of what is left of its deadline. */
const DEADLINE_SHARE = 4;

/** Below this wait on Redis (a short deadline), an attempt is paced in process at once, in ms. */
const MIN_REDIS_WAIT_MS = 10;

/** `host:port` of a Redis URL, for messages (never its credentials). */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.host;
  } catch {
    return "(invalid URL)";
  }
}

/** Redis gave no answer within the wait a call could spend on it. */
class NoAnswer extends Error {
  constructor(readonly waitedMs: number) {
    super(`no answer within ${waitedMs} ms`);
  }
}

/** Redis answered a script with something that is not what the script returns. */
class WrongReply extends Error {
  constructor(readonly reply: unknown) {
    super("wrong reply");
  }
}

/** What went wrong with Redis, as one cause (warned once) and the words for it. */
function cause(error: unknown, key: string): { id: string; text: string } {
  if (error instanceof NoAnswer) {
    return { id: "no-answer", text: `did not answer within ${error.waitedMs} ms` };
  }
  if (error instanceof WrongReply) {
    const reply = shown(JSON.stringify(error.reply) ?? String(error.reply));
    return { id: "wrong-reply", text: `answered the budget script with ${reply}, not a wait` };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (message === "Command timed out") return { id: "no-answer", text: "did not answer in time" };
  if ((error as { name?: unknown })?.name === "ReplyError") {
    if (message.startsWith("WRONGTYPE")) {
      return {
        id: "wrong-type",
        text: `holds a value that is not a budget at ${shown(key)} (WRONGTYPE; delete the key)`,
      };
    }
    return {
      id: `error ${message.split(" ")[0]}`,
      text: `refused the budget script (${shown(message)})`,
    };
  }
  return { id: "unreachable", text: "cannot be reached (connection refused, closed or not ready)" };
}

/** Settles as `promise` does, or rejects with {@link NoAnswer} after `ms`, or as `stop` does. */
async function within<T>(promise: Promise<T>, ms: number, stop: Promise<never>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(ms)), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, late, stop]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Rejects once `signal` aborts; `dispose` removes its listener (a call may ask Redis many times: its
 * signal must not gather one listener per ask).
 */
function aborted(signal: AbortSignal): { stop: Promise<never>; dispose(): void } {
  let onAbort = (): void => undefined;
  const stop = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  stop.catch(() => undefined);
  return { stop, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/** One window of an answer as the report script takes it: limit, remaining, resetAt ('' when not stated). */
function windowArgs(answer: RateLimitAnswer, scope: "burst" | "daily", now: number): string[] {
  // Bounded by the reader: whole numbers up to 2^31, resets at most a day ahead, before Lua sees them.
  const stated = readWindow(answer.headers, scope, now);
  if (stated === undefined) return ["", "", ""];
  const refused = answer.status === 429 && refusingWindow(answer.headers, now).scope === scope;
  const remaining = refused ? 0 : stated.remaining;
  return [stated.limit, remaining, stated.resetAt].map((v) => (v === undefined ? "" : String(v)));
}

/**
 * A slot one call took at a time still to come (a place in the current window, or in the queue of a
 * window to come): the budget's key, when its time comes and the last moment a request sent in it
 * still lands in its window (this process's clock), what the script took, and whether the call spent
 * it (sent, or gave it back).
 */
interface Slot {
  readonly key: string;
  readonly opensAt: number;
  readonly lastAt: number;
  readonly took: readonly number[];
  spent: boolean;
}

/**
 * The acquire script's reply, checked: seven whole numbers, a wait no longer than a window can mean,
 * at least one process (this one) and at most {@link MAX_PROCESSES}.
 */
function acquireReply(reply: unknown, longestWaitMs: number): number[] | undefined {
  if (!Array.isArray(reply) || reply.length !== 7) return undefined;
  if (!reply.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
  const [wait, reserved, bKind, , cKind, , active] = reply as number[];
  if (wait! > longestWaitMs || reserved! > 1 || bKind! > 2 || cKind! > 2) return undefined;
  if (active! < 1 || active! > MAX_PROCESSES) return undefined;
  return reply as number[];
}

/** What this process last learnt of a budget's sharing: for pacing at its share while Redis is gone. */
interface Share {
  /** Processes that asked Redis for the budget lately, this one included (the last reply). */
  processes: number;
  /** The burst limit the answers last stated, requests per window. */
  burstLimit?: number | undefined;
  /** While pacing alone: the burst window (Unix ms of its start) `sent` counts, and the count. */
  window: number;
  sent: number;
  /**
   * The end of the last burst window Redis gave this process a request in (Unix ms): Redis handed
   * that window's room out, so this process sends nothing alone before it ends.
   */
  grantedUntil: number;
  /** Whether this process paces alone now (its last ask was not answered by Redis). */
  alone: boolean;
  /**
   * Until when (Unix ms) this process, back from pacing alone, tells Redis how many shared the
   * budget before (`processes` then): the room of those not back yet is kept for them.
   */
  tellUntil: number;
}

/** The start of the burst window (whole seconds, as the service counts them) that `at` falls in. */
const windowStart = (at: number): number => at - (at % BURST_WINDOW_MS);
/** The end of the burst window that `at` falls in. */
const windowEnd = (at: number): number => windowStart(at) + BURST_WINDOW_MS;

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
  checkConfiguredLimit(limit);
  const commandTimeoutMs = options.commandTimeoutMs ?? 500;
  if (!(commandTimeoutMs > 0 && commandTimeoutMs <= 60_000)) {
    throw new TypeError(
      `commandTimeoutMs: must be a number of milliseconds from 1 to 60000 (got ${commandTimeoutMs})`,
    );
  }
  const at = where(options.url);
  /** The longest wait a reply may ask for: the daily quota's reset, or the configured window. */
  const longestWaitMs = Math.max(MAX_RESET_AHEAD_MS.daily, limit?.intervalMs ?? 0) + 1_000;
  const local = createRateLimiter(limit === undefined ? {} : { limit });
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A backstop for the commands no call waits for; each call bounds its own wait (see `shared`).
    commandTimeout: Math.max(commandTimeoutMs, FIRST_CONNECT_MS) + 100,
    lazyConnect: true,
    retryStrategy: (times) => Math.min(100 * times, 1_000),
  }) as ScriptedRedis;
  redis.defineCommand("rateLimitAcquire", { numberOfKeys: 2, lua: ACQUIRE_SCRIPT });
  redis.defineCommand("rateLimitReport", { numberOfKeys: 1, lua: REPORT_SCRIPT });
  redis.defineCommand("rateLimitRelease", { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  // Errors arrive as rejected commands; without a listener ioredis would print each one.
  redis.on("error", () => undefined);
  const connecting = redis.connect().catch(() => undefined);
  const breaker = new Breaker(() => Date.now());
  /** The causes already warned about since Redis last answered after trouble (one warning each). */
  const warned = new Set<string>();
  let closed = false;

  /**
   * Runs a script on Redis within the wait this call can spend on it, or says why not (once per
   * cause) and returns undefined: the in-process gate decides then.
   */
  async function shared<T>(
    key: string,
    command: () => Promise<unknown>,
    check: (reply: unknown) => T | undefined,
    context: RateLimitContext,
  ): Promise<T | undefined> {
    if (closed) return undefined;
    /** The longest wait for Redis this call can spend now: a share of what is left of its deadline. */
    const share = (longest: number) =>
      Math.floor(Math.min(longest, remainingMs(context) / DEADLINE_SHARE));
    const ready = redis.status === "ready";
    // A short deadline, or an open breaker: this process paces alone, without waiting on Redis.
    if (share(ready ? commandTimeoutMs : FIRST_CONNECT_MS) < MIN_REDIS_WAIT_MS) return undefined;
    if (!breaker.allows()) return undefined;
    const { stop, dispose } = aborted(context.signal);
    try {
      if (!ready) await within(connecting, share(FIRST_CONNECT_MS), stop);
      const reply = await within(command(), share(commandTimeoutMs), stop);
      const value = check(reply);
      if (value === undefined) throw new WrongReply(reply);
      // After trouble that was said (or the breaker opened), say once that it is over.
      if (breaker.succeeded() || warned.size > 0) {
        warned.clear();
        context.warn(`rate limiter: Redis at ${at} answers again; the budget is shared again`);
      }
      return value;
    } catch (error) {
      if (context.signal.aborted) throw error;
      const { id, text } = cause(error, prefix + key);
      if (!warned.has(id)) {
        warned.add(id);
        context.warn(
          `rate limiter: Redis at ${at} ${text}; this attempt is paced by this process alone ` +
            "(the budget is not shared for it)",
        );
      }
      const backOffMs = breaker.failed();
      if (backOffMs !== undefined) {
        context.warn(
          `rate limiter: Redis at ${at} failed several times in a row; for the next ` +
            `${backOffMs / 1000} s this process paces alone without asking it, then tries it again`,
        );
      }
      return undefined;
    } finally {
      dispose();
    }
  }

  /** Whether a command that no call waits for may go to Redis now. */
  const usable = (): boolean => !closed && !breaker.open && redis.status === "ready";

  /** Gives a slot back to Redis (its call will not send in it), unless it was spent already. */
  function giveBack(slot: Slot): void {
    if (slot.spent) return;
    slot.spent = true;
    if (!usable()) return;
    redis
      .rateLimitRelease(prefix + slot.key, ...slot.took, BURST_WINDOW_MS, limit?.intervalMs ?? "")
      .catch(() => undefined);
  }
  /**
   * The wait left before the slot of `key` this call holds (its context's `held`: only that call
   * sends in it, a call that asks later never takes it) opens: 0 once it has opened (the call sends
   * in it), undefined when the call holds none, or its window is too far gone to land in (given back).
   */
  function ownSlot(key: string, context: RateLimitContext, now: number): number | undefined {
    const slot = context.held as Slot | undefined;
    if (slot === undefined || slot.key !== key || slot.spent) return undefined;
    context.held = undefined;
    if (now >= slot.lastAt || slot.opensAt >= slot.lastAt) {
      giveBack(slot);
      return undefined;
    }
    if (now < slot.opensAt) {
      context.held = slot;
      return slot.opensAt - now;
    }
    slot.spent = true;
    return 0;
  }
  /** Keeps the slot a call took with the call; gives it back to Redis if the call ends (refused, aborted) before sending. */
  function reserve(slot: Slot, context: RateLimitContext): void {
    context.held = slot;
    context.signal.addEventListener("abort", () => giveBack(slot), { once: true });
  }

  /** This process's id among those sharing a budget (the acquire script counts them). */
  const id = globalThis.crypto.randomUUID();
  /** Per key, the sharing this process last saw in Redis. */
  const shares = new Map<string, Share>();

  /**
   * Paces an attempt in process when Redis cannot decide: at most this process's last known share of
   * the burst limit (limit / processes seen in Redis, at least 1) in each burst window (whole seconds,
   * as the service counts them), so N processes pacing alone do not spend N budgets; nothing before
   * the windows Redis handed out to it end; and always within the in-process gate.
   */
  async function alone(key: string, context: RateLimitContext): Promise<number> {
    const share = shares.get(key);
    if (share?.burstLimit === undefined || share.processes < 2) return local.acquire(key, context);
    share.alone = true;
    const now = Date.now();
    // The windows Redis handed out (this process's slots in them included) are left to the
    // requests it let through: sending alone in them too would spend them twice.
    if (now < share.grantedUntil) return share.grantedUntil - now;
    const window = windowStart(now);
    if (share.window !== window) {
      share.window = window;
      share.sent = 0;
    }
    if (share.sent >= Math.max(1, Math.floor(share.burstLimit / share.processes))) {
      return window + BURST_WINDOW_MS - now;
    }
    const wait = await local.acquire(key, context);
    if (wait === 0) share.sent++;
    return wait;
  }

  return {
    async acquire(key, context) {
      const askedAt = Date.now();
      const own = ownSlot(key, context, askedAt);
      if (own !== undefined) return own;
      const known = shares.get(key);
      const told = known !== undefined && (known.alone || askedAt < known.tellUntil);
      const answer = await shared(
        key,
        () =>
          redis.rateLimitAcquire(
            prefix + key,
            `${prefix}${key}:processes`,
            BURST_WINDOW_MS,
            limit?.requests ?? "",
            limit?.intervalMs ?? "",
            id,
            told ? known.processes : "",
            // What it sent alone in the current window, for Redis to count (once it answers).
            known?.alone && known.window === windowStart(askedAt) ? known.sent : "",
            known === undefined ? "" : known.window + BURST_WINDOW_MS,
          ),
        (reply) => acquireReply(reply, longestWaitMs),
        context,
      );
      if (answer === undefined) return alone(key, context);
      const share = known ?? {
        processes: 1,
        window: 0,
        sent: 0,
        grantedUntil: 0,
        alone: false,
        tellUntil: 0,
      };
      if (share.alone) {
        // Back from pacing alone: said to Redis for as long as a process counts as sharing.
        share.alone = false;
        share.tellUntil = Date.now() + ACTIVE_MS;
      } else if (!told) {
        share.processes = answer[6]!;
      }
      shares.set(key, share);
      const [wait, isReserved, ...took] = answer.slice(0, 6) as [number, number, ...number[]];
      if (wait === 0) share.grantedUntil = Math.max(share.grantedUntil, windowEnd(Date.now()));
      if (isReserved === 1) {
        // The slot is this call's once its time comes (its place in its window, in asking order):
        // its next ask after the wait sends in it without asking Redis again. Redis's clock said
        // `wait` between the ask and the reply: the time comes no earlier than the reply's arrival
        // plus it (never sent early), and the slot is safe until at least the ask plus it plus the
        // share of the window's safe part the requests are spread over (a reply held up longer by
        // a busy process is not trusted: the slot is given back and the call asks again).
        const opensAt = Date.now() + wait;
        share.grantedUntil = Math.max(share.grantedUntil, windowEnd(opensAt));
        reserve(
          {
            key,
            opensAt,
            lastAt: askedAt + wait + (BURST_WINDOW_MS - ZONE_MS) / SPREAD_SHARE,
            took,
            spent: false,
          },
          context,
        );
        // The wait until it opens, or (a slot the reply came too late to use, given back) at once.
        return ownSlot(key, context, Date.now()) ?? 1;
      }
      return wait;
    },
    async report(key, answer, context) {
      // The in-process gate always learns too, so it is current when it has to decide.
      await local.report(key, answer, context);
      const burstLimit = readWindow(answer.headers, "burst", Date.now())?.limit;
      const share = shares.get(key);
      if (share !== undefined && burstLimit !== undefined) share.burstLimit = burstLimit;
      if (!usable()) {
        // A connection lost since the last ask (Redis died or restarts): said now, not at this
        // process's next ask, which may come a window later (a slot's wait, a 429's retry wait).
        const lost = ["reconnecting", "close", "end"].includes(redis.status);
        if (lost && !closed && !breaker.open && !warned.has("unreachable")) {
          warned.add("unreachable");
          context.warn(
            `rate limiter: Redis at ${at} cannot be reached (connection lost); this process paces ` +
              "alone until it answers again (the budget is not shared meanwhile)",
          );
        }
        return;
      }
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
