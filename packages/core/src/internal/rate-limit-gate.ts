// The pipeline's two rate-limit hook points: `pace` before each attempt (ask the limiter, wait what it
// says within the caller's signal and the call's deadline, log the wait) and `report` after each answer.
// A limiter that fails never fails a call: the attempt goes ahead and a warning says why. A header
// value outside its window's bounds is said once per client (per header), and never waited for.
import { AbortError } from "../errors.js";
import type { RateLimitAnswer, RateLimitContext, RateLimiter } from "../options.js";
import type { Deadline } from "./deadline.js";
import { isoDate, readWindow, RESET_MARGIN_MS } from "./rate-limit-headers.js";
import { budgetKey } from "./rate-limit.js";
import { sleep } from "./sleep.js";

/** The gate's clock: `Date.now` and a real `sleep`, or the tests' controlled time. */
export interface GateClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const SYSTEM_CLOCK: GateClock = { now: () => Date.now(), sleep };

/** One call as the gate sees it: where its waits and warnings are reported (its watch). */
export interface GatedCall {
  readonly method: string;
  readonly url: string;
  readonly signal: AbortSignal;
  readonly deadline: Deadline;
  readonly watch: {
    warn(message: string): void;
    rateLimitWait(attempt: number, delayMs: number): void;
  };
  /** The context the limiter is given, made once per call by the gate. */
  context?: Context;
}

/** The gate of one client: its limiter and its budget key. */
export interface RateLimitGate {
  /**
   * Waits until the limiter lets attempt `attempt` go; resolves to the milliseconds it waited (`0`
   * at once, not a promise, when a limiter that answers synchronously has room).
   */
  pace(call: GatedCall, attempt: number): Promise<number> | 0;
  /** Tells the limiter what an answer stated (`undefined` when a limiter learned it synchronously). */
  report(call: GatedCall, answer: RateLimitAnswer): Promise<void> | undefined;
  /** Ends a call: the limiter's signal no longer waits for the deadline. */
  end(call: GatedCall): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The context a limiter gets. Its signal, made on first use and kept for the call, aborts when the
 * caller aborts or the call's deadline passes. The gate holds the deadline's timer itself: an
 * `AbortSignal.timeout()` inside `AbortSignal.any()` can be garbage-collected before it fires
 * (nodejs/node#57736), and a limiter waiting on it would then wait past the deadline.
 */
class Context implements RateLimitContext {
  readonly #call: GatedCall;
  #signal: AbortSignal | undefined;
  #ended: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(call: GatedCall) {
    this.#call = call;
  }

  /** Aborts when the caller aborts, the call's deadline passes or the call ends (what a limiter holds for it is free then). */
  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const ended = (this.#ended = new AbortController());
      this.#timer = setTimeout(
        () => ended.abort(new DOMException("the call's deadline passed", "TimeoutError")),
        this.#call.deadline.remaining(),
      );
      this.#signal = AbortSignal.any([this.#call.signal, ended.signal]);
    }
    return this.#signal;
  }

  /** Milliseconds left of the call's deadline: a limiter's own waits (on a shared store) stay well within it. */
  remainingMs(): number {
    return this.#call.deadline.remaining();
  }

  readonly warn = (message: string): void => this.#call.watch.warn(message);

  /** Stops the deadline's timer and aborts the signal: the call holds nothing any more. */
  end(): void {
    clearTimeout(this.#timer);
    this.#ended?.abort();
  }
}

/** The context of a call, made once (a call asks the limiter at least twice). */
const contextOf = (call: GatedCall): Context => (call.context ??= new Context(call));

/** Creates the gate of one client; the key names the API (base URL) and account (`Authorization`). */
export function createRateLimitGate(
  limiter: RateLimiter,
  baseUrl: string,
  authorization: string,
  clock: GateClock = SYSTEM_CLOCK,
): RateLimitGate {
  const key = budgetKey(baseUrl, authorization);
  /** The headers already warned about (one `warning` per header per client, at most six). */
  const warned = new Set<string>();
  function warnRejected(call: GatedCall, headers: Headers, now: number): void {
    const rejected: string[] = [];
    readWindow(headers, "burst", now, rejected);
    readWindow(headers, "daily", now, rejected);
    for (const value of rejected) {
      const header = value.slice(0, value.indexOf(":"));
      if (warned.has(header)) continue;
      warned.add(header);
      const window = header[0] === "B" ? "burst window" : "daily quota";
      call.watch.warn(`rate limit: ignored ${value}: no ${window} can mean it; not waited for`);
    }
  }
  /** `pace` once the limiter answered with a promise or a wait. */
  async function paced(
    call: GatedCall,
    attempt: number,
    context: Context,
    answer: Promise<number> | number | undefined,
  ): Promise<number> {
    let waited = 0;
    for (;;) {
      let waitMs: number;
      try {
        waitMs = await (answer ?? limiter.acquire(key, context));
      } catch (error) {
        if (call.signal.aborted) throw new AbortError(call.signal.reason);
        context.warn(`rate limiter failed (${describe(error)}); this attempt goes ahead unpaced`);
        return waited;
      }
      answer = undefined;
      if (!(waitMs > 0)) return waited;
      const delayMs = Math.ceil(waitMs) + RESET_MARGIN_MS;
      if (call.deadline.crossedBy(delayMs)) {
        throw call.deadline.exceeded(
          { method: call.method, url: call.url, attempts: attempt - 1 },
          `not sent: the rate limit's wait of ${Math.ceil(waitMs)} ms (until ` +
            `${isoDate(clock.now() + waitMs) ?? "past a Date's range"}) exceeds the ` +
            `${call.deadline.remaining()} ms left of it`,
          true,
        );
      }
      call.watch.rateLimitWait(attempt, delayMs);
      waited += delayMs;
      try {
        await clock.sleep(delayMs, call.signal);
      } catch {
        throw new AbortError(call.signal.reason);
      }
    }
  }
  const reportFailed = (context: Context, error: unknown): void =>
    context.warn(`rate limiter failed to learn the budget (${describe(error)})`);
  return {
    pace(call, attempt) {
      const context = contextOf(call);
      let answer: Promise<number> | number;
      try {
        answer = limiter.acquire(key, context);
      } catch (error) {
        // Reported (or turned into an abort) by `paced`, as a rejected answer.
        answer = Promise.reject(error);
      }
      // The common case, answered synchronously with room: no promise, no extra turn.
      if (typeof answer === "number" && !(answer > 0)) return 0;
      return paced(call, attempt, context, answer);
    },
    report(call, answer) {
      const context = contextOf(call);
      warnRejected(call, answer.headers, clock.now());
      try {
        const learned = limiter.report(key, answer, context);
        // A limiter that learned synchronously (the in-process one) costs no extra turn; any other
        // answer is awaited, a promise of another realm included (it is not `instanceof Promise`).
        if (learned !== undefined) {
          return Promise.resolve(learned).catch((error) => reportFailed(context, error));
        }
      } catch (error) {
        reportFailed(context, error);
      }
      return undefined;
    },
    end: (call) => call.context?.end(),
  };
}

/**
 * Milliseconds left of the call's deadline, for a limiter that waits on a shared store (the Redis
 * limiter bounds each wait by it); `Infinity` for a context this gate did not make.
 */
export function remainingMs(context: RateLimitContext): number {
  return context instanceof Context ? context.remainingMs() : Number.POSITIVE_INFINITY;
}
