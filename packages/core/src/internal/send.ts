// The one request path: `send` takes a call and its request and runs pace → attempt → decide → wait
// until a final answer or error. Every entry point (`request()`, the methods, `raw`) ends here.
import { AbortError, type ApiClientError } from "../errors.js";
import type { Answer } from "./answer.js";
import { attemptOnce, type Gated, type Tried } from "./attempt.js";
import { maybeApplied, type ApiContext, type Call } from "./call.js";
import { Deadline } from "./deadline.js";
import { redactUrl } from "./redact.js";
import { isIdempotentMethod, retryDecision } from "./retry-policy.js";
import { IDLE, watchCall, watched, type Watch } from "./tracing.js";

/** A call's final answer, and its watch (a `typed` call finishes it once the answer is read). */
export interface Outcome extends Answer {
  readonly watch: Watch;
}

/** A signal that never aborts, for a call made without one. */
const NEVER = new AbortController().signal;

/**
 * Sends a call: every attempt, until a final answer (resolved) or error (thrown, typed, with
 * `maybeApplied` set when it applies). A `raw` call's watch is finished here; a `typed` one's by the caller.
 */
export async function send(api: ApiContext, call: Call, request: Request): Promise<Outcome> {
  const { method, url } = request;
  const logger = api.options.logger;
  // Nothing is built for a call nobody watches.
  const watch = watched(logger)
    ? watchCall(
        {
          api: api.api,
          operationId: call.operationId,
          method,
          path: call.operation?.path ?? "",
          url,
          callId: call.callId,
        },
        logger,
      )
    : IDLE;
  // [deadline] One bound on the whole call: attempts, retry waits and rate-limit waits.
  const deadline = new Deadline(call.limits.deadlineMs, api.clock.now);
  const signal = call.signal ?? NEVER;
  const gated: Gated = { method, url: redactUrl(url), signal, deadline, watch };
  try {
    for (const message of call.warnings ?? []) watch.warn(message);
    // The body openapi-fetch serialized is read once, into a Blob re-sent on every attempt (an
    // ArrayBuffer is detached once sent, so neither a retry nor a 307/308 redirect could send it again).
    const body = request.body === null ? undefined : await request.blob();
    const answer = await attempts(api, call, request, body, gated);
    if (!call.typed) watch.finish(answer.error);
    return { ...answer, watch };
  } catch (error) {
    watch.finish(error);
    throw error;
  } finally {
    api.gate.end(gated);
  }
}

/** Every attempt of one call: pace → attempt → decide → wait, until an answer or an error. */
async function attempts(
  api: ApiContext,
  call: Call,
  request: Request,
  body: Blob | undefined,
  gated: Gated,
): Promise<Answer> {
  const { method, signal } = gated;
  const idempotent = call.operation?.idempotent ?? isIdempotentMethod(method);
  const changesState = !/^(GET|HEAD|OPTIONS)$/.test(method);
  // Whether an attempt of a state-changing call may have been applied (timeout, reset, 5xx).
  let uncertain = false;
  try {
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new AbortError(signal.reason);
      // [rate limit] Wait until the budget the server reported has room for this attempt.
      const paced = api.gate.pace(gated, attempt);
      const rateLimitWaitMs = paced === 0 ? 0 : await paced;
      const input = { request, body, gated, idempotent, attempt, rateLimitWaitMs };
      const tried = await attemptOnce(api, call, input);
      // An answer to retry with a 5xx, or no answer after sending: the outcome is unknown.
      uncertain ||=
        changesState && (tried.retry ? (tried.status as number) >= 500 : !!tried.unknown);
      const wait = decide(call, tried, gated, attempt, idempotent, uncertain);
      if (wait === undefined) return tried.answer as Answer;
      try {
        await api.clock.sleep(wait, signal);
      } catch {
        throw new AbortError(signal.reason);
      }
    }
  } catch (error) {
    throw maybeApplied(error, uncertain);
  }
}

/**
 * Decides after an attempt, and tells its watch: `undefined` for a final answer (returned), the wait
 * before the next attempt, or throws the final error.
 */
function decide(
  call: Call,
  tried: Tried,
  gated: Gated,
  attempt: number,
  idempotent: boolean,
  uncertain: boolean,
): number | undefined {
  const { watch, deadline, method, url } = gated;
  const { answer, retry, status } = tried;
  if (answer) {
    const { bytes } = tried;
    watch.settle({ status, bytes, error: maybeApplied(answer.error, uncertain) });
    if (call.typed && answer.error) throw answer.error;
    return undefined;
  }
  if (retry) {
    const { delayMs, reason } = retry;
    watch.settle({ status, retryDelayMs: delayMs, reason });
    return delayMs;
  }
  const error = tried.error as ApiClientError;
  const next = tried.retryable
    ? retryDecision({ attempt, maxRetries: call.limits.maxRetries, idempotent, error })
    : undefined;
  const decision = next === undefined ? undefined : deadline.bound(next);
  if (decision?.retry) {
    watch.settle({ status, error, retryDelayMs: decision.delayMs, reason: decision.reason });
    return decision.delayMs;
  }
  // [deadline] A retry the deadline leaves no room for.
  const thrown =
    next?.retry === true && decision !== undefined
      ? deadline.exceeded(
          { method, url, attempts: attempt, cause: error },
          `${decision.note ?? ""} (last attempt: ${error.message})`,
        )
      : error;
  watch.settle({ status, error: maybeApplied(thrown, uncertain) });
  throw thrown;
}
