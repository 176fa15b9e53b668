// What a call shows to the outside: the `logger` events and the `diagnostics_channel` tracing channels
// `api-clients:call` and `api-clients:attempt`, both fed from here by the request path (pipeline.ts),
// which calls the four hooks of a `Watch`: attempt → settle (per attempt) and finish (once).
// The channels are loaded without a static `node:` import (browsers and bundlers never see one); where
// `process.getBuiltinModule` is missing there is no tracing. Nothing is built while nobody listens.
import type { ApiClientError } from "../errors.js";
import type { CallLogFields, LogEvent, Logger } from "../options.js";

/** A log event without the fields every event of the call shares. */
type Bare<E> = E extends unknown ? Omit<E, keyof CallLogFields> : never;

/** What a `diagnostics_channel` tracing channel gives us (the few members used). */
interface Channel {
  readonly hasSubscribers?: boolean;
  readonly start: { readonly hasSubscribers: boolean; publish(context: object): void };
  readonly end: { publish(context: object): void };
  readonly asyncStart: { publish(context: object): void };
  readonly asyncEnd: { publish(context: object): void };
  readonly error: { publish(context: object): void };
}

/** Name of the tracing channel with one context per call (start, end, asyncStart, asyncEnd, error). */
export const CALL_CHANNEL = "api-clients:call";
/** Name of the tracing channel with one context per attempt of a call. */
export const ATTEMPT_CHANNEL = "api-clients:attempt";

/** The context of one call on the `api-clients:call` tracing channel. */
export interface CallTrace {
  /** Which API: `"logs"` or `"management"`. */
  readonly api: string;
  /** The spec's operationId, e.g. `listLogs`. */
  readonly operationId: string;
  /** HTTP method. */
  readonly method: string;
  /** The spec's path template, e.g. `/v2/redis/database/{id}`. */
  readonly path: string;
  /** The URL without credentials and with query values removed (`/v2/logs?count&state`). */
  readonly url: string;
  /** Shared by the call, its attempts and its logger events. */
  readonly callId: string;
  /** Number of attempts made so far (the last one's number). */
  attempt: number;
  /** Status of the final response (set when the call ends with a response). */
  status?: number | undefined;
  /** Size of the final response body in bytes (set when it was read). */
  bytes?: number | undefined;
  /** Time spent waiting for the client's rate limit, over all attempts, in milliseconds. */
  rateLimitWaitMs: number;
  /** The typed error the call failed with (an HTTP error answer included). */
  error?: ApiClientError | unknown;
}

/** The context of one attempt on the `api-clients:attempt` tracing channel. */
export interface AttemptTrace extends CallTrace {
  /** Wait before the next attempt, in milliseconds; set only when another attempt follows this one. */
  retryDelayMs?: number;
  /** Time this attempt waited for the client's rate limit before it was sent, in milliseconds. */
  rateLimitWaitMs: number;
  /**
   * Adds a header to this attempt's request (for trace context: `traceparent`, `tracestate`,
   * `baggage`); only from a `start` subscriber. `authorization` cannot be set. The request's own
   * headers are never readable here.
   */
  setHeader(name: string, value: string): void;
}

const diagnostics = (
  globalThis as { process?: { getBuiltinModule?(id: string): unknown } }
).process?.getBuiltinModule?.("node:diagnostics_channel") as
  { tracingChannel(name: string): Channel } | undefined;
const callChannel = diagnostics?.tracingChannel(CALL_CHANNEL);
const attemptChannel = diagnostics?.tracingChannel(ATTEMPT_CHANNEL);

const listening = (channel: Channel | undefined): channel is Channel =>
  !!channel && (channel.hasSubscribers ?? channel.start.hasSubscribers);

/**
 * Publishes the start of a traced operation (`start`, then `end`: its synchronous part is over), or
 * its end (`error` when it failed, then `asyncStart`, `asyncEnd`).
 */
function publish(channel: Channel, context: { error?: unknown }, ending?: boolean): void {
  if (!ending) {
    channel.start.publish(context);
    channel.end.publish(context);
    return;
  }
  if (context.error !== undefined) channel.error.publish(context);
  channel.asyncStart.publish(context);
  channel.asyncEnd.publish(context);
}

/** The URL as logs and traces show it: no credentials, query parameters named without their values. */
export function shownUrl(url: string): string {
  const shown = new URL(url);
  const names = [...new Set(shown.searchParams.keys())].join("&");
  shown.username = shown.password = shown.search = shown.hash = "";
  return shown.href + (names && `?${names}`);
}

/** What one call is, for its events and traces (`url` as sent: shown through {@link shownUrl}). */
export type CallIdentity = CallLogFields;

/** One attempt as the request path reports it to {@link Watch.settle}. */
export interface AttemptOutcome {
  status?: number | undefined;
  bytes?: number | undefined;
  error?: unknown;
  /** Set when another attempt follows, after this wait. */
  retryDelayMs?: number | undefined;
  /** Why another attempt follows (for the `retry` log event). */
  reason?: string | undefined;
}

/** The hooks the request path calls; a no-op where nobody listens. */
export interface Watch {
  /**
   * An attempt is about to be sent: `request` event, attempt `start` (whose subscribers may add
   * headers to `headers`); `rateLimitWaitMs` is how long it waited for the rate limit.
   */
  attempt(attempt: number, headers: Headers, rateLimitWaitMs?: number): void;
  /** The attempt's response headers arrived: `response` event. */
  response(status: number): void;
  /** The attempt is over: attempt `asyncEnd`, and a `retry` event when another follows. */
  settle(outcome: AttemptOutcome): void;
  /** Something worth knowing that does not stop the call: `warning` event. */
  warn(message: string): void;
  /** Attempt `attempt` waits `delayMs` for the rate limit before it is sent: `rate-limit` event. */
  rateLimitWait(attempt: number, delayMs: number): void;
  /** The call is over (`error` when it failed): call `asyncEnd`, and then the `error` event. */
  finish(error: unknown): void;
}

/** The watch of a call nobody watches (see {@link watched}). */
export const IDLE: Watch = {
  attempt() {},
  response() {},
  settle() {},
  warn() {},
  rateLimitWait() {},
  finish() {},
};

/** Whether a call made now is watched: there is a logger, or a subscriber of the call channel. */
export const watched = (logger: Logger | undefined): boolean => !!logger || listening(callChannel);

/**
 * Starts watching one call that {@link watched} says is watched: returns its hooks, publishing the
 * call's `start` and `end` now. A call nobody watches gets {@link IDLE} instead, from the request
 * path, which asks `watched()` first so that it builds nothing for it.
 */
export function watchCall(identity: CallIdentity, logger: Logger | undefined): Watch {
  const traced = listening(callChannel);
  const shown = { ...identity, url: shownUrl(identity.url) };
  const emit = (event: Bare<LogEvent>) => {
    try {
      // A failing logger must never break a request, nor (when async) reject unhandled.
      const result = logger?.({ ...event, ...shown } as LogEvent) as unknown;
      if (result instanceof Promise) result.catch(() => undefined);
    } catch {
      // As above.
    }
  };
  const call: CallTrace | undefined = traced
    ? { ...shown, attempt: 0, rateLimitWaitMs: 0 }
    : undefined;
  if (call) publish(callChannel!, call);
  let current: AttemptTrace | undefined;
  let number = 0;
  let started = 0;
  return {
    attempt(attempt, headers, rateLimitWaitMs = 0) {
      number = attempt;
      started = performance.now();
      emit({ type: "request", attempt });
      if (call) {
        call.attempt = attempt;
        call.rateLimitWaitMs += rateLimitWaitMs;
      }
      if (!listening(attemptChannel)) return;
      current = {
        ...shown,
        attempt,
        rateLimitWaitMs,
        setHeader(name, value) {
          try {
            if (name.toLowerCase() !== "authorization") headers.set(name, value);
          } catch {
            // An invalid name or value from a subscriber is dropped, never a failed call.
          }
        },
      };
      publish(attemptChannel, current);
    },
    response(status) {
      emit({
        type: "response",
        attempt: number,
        status,
        durationMs: Math.round(performance.now() - started),
      });
    },
    settle(outcome) {
      const { retryDelayMs } = outcome;
      if (retryDelayMs !== undefined) {
        emit({
          type: "retry",
          attempt: number,
          delayMs: retryDelayMs,
          reason: outcome.reason ?? "",
        });
      }
      if (call) {
        call.status = outcome.status;
        call.bytes = outcome.bytes;
      }
      if (!current) return;
      // Each field only when known (`retryDelayMs` only when another attempt follows).
      const { status, bytes, error } = outcome;
      if (status !== undefined) current.status = status;
      if (bytes !== undefined) current.bytes = bytes;
      if (error !== undefined) current.error = error;
      if (retryDelayMs !== undefined) current.retryDelayMs = retryDelayMs;
      publish(attemptChannel!, current, true);
      current = undefined;
    },
    warn(message) {
      emit({ type: "warning", message });
    },
    rateLimitWait(attempt, delayMs) {
      emit({ type: "rate-limit", attempt, delayMs });
    },
    finish(error) {
      if (error !== undefined) {
        emit({
          type: "error",
          attempt: number,
          error: (error as Error).message,
        });
      }
      if (!call) return;
      call.error = error;
      publish(callChannel!, call, true);
    },
  };
}
