// One attempt of a call: build the outgoing request, tell the watchers, send it through the call's
// `fetch` under one timer (which covers the response and its whole body), report the answer to the
// rate-limit gate, and either read the answer whole or hand back why it should be retried.
import { AbortError, ApiClientError, ConnectionError } from "../errors.js";
import { failed, succeeded, tooLarge, type Answer } from "./answer.js";
import type { ApiContext, Call } from "./call.js";
import { attemptFailure, refusal, type AttemptPlace } from "./failure.js";
import type { GatedCall } from "./rate-limit-gate.js";
import { BodyTooLarge, readBody } from "./read-body.js";
import { isConnectionNotEstablished, retryDecision, type RetryDecision } from "./retry-policy.js";
import type { Watch } from "./tracing.js";

/** One call's gate record, with its watch and deadline. */
export type Gated = GatedCall & { readonly watch: Watch };

/** What one attempt needs besides its call. */
export interface AttemptInput {
  /** The call's request: method, URL and headers (its body, if any, is `body`). */
  readonly request: Request;
  /** The body sent on every attempt. */
  readonly body: Blob | undefined;
  readonly gated: Gated;
  /** Whether the operation is safe to repeat. */
  readonly idempotent: boolean;
  /** The attempt's number, from 1. */
  readonly attempt: number;
  /** How long it waited for the rate limit before it was sent, in milliseconds. */
  readonly rateLimitWaitMs: number;
}

/**
 * How an attempt ended: a final `answer` (read whole); an answer to `retry` (not read); or an
 * `error` without a usable answer.
 */
export interface Tried {
  readonly answer?: Answer;
  readonly retry?: Extract<RetryDecision, { retry: true }>;
  readonly error?: ApiClientError;
  /** The answer's status, when one arrived. */
  readonly status?: number | undefined;
  /** Size of the answer's body, when it was read. */
  readonly bytes?: number;
  /** The retry rule decides on `error` (a connection failure or a timeout). */
  readonly retryable?: boolean;
  /** The request may have reached the server, with an unknown outcome. */
  readonly unknown?: boolean;
}

/** Sends one attempt and reads its answer; never throws. */
export async function attemptOnce(
  api: ApiContext,
  call: Call,
  input: AttemptInput,
): Promise<Tried> {
  const { request, gated, attempt } = input;
  const { method, url, deadline, watch } = gated;
  const place: AttemptPlace = { method, url, attempts: attempt };
  const controller = new AbortController();
  // A fresh request per attempt: the body re-sent, the attempt's own signal and headers.
  const outgoing = new Request(request, { body: input.body ?? null, signal: controller.signal });
  outgoing.headers.set("authorization", api.authorization);
  watch.attempt(attempt, outgoing.headers, input.rateLimitWaitMs);
  // [deadline] The timer starts after the watchers ran: their time is not the attempt's.
  const { timeoutMs } = call.limits;
  const attemptMs = Math.min(timeoutMs, deadline.remaining());
  if (attemptMs <= 0) {
    return {
      error: deadline.exceeded(
        { method, url, attempts: attempt - 1 },
        "no time left for an attempt",
      ),
    };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, attemptMs);
  const signal = call.signal;
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", forwardAbort);
  let response: Response | undefined;
  try {
    const answered: unknown = await call.fetch(outgoing);
    const refused = refusal(answered, place);
    if (refused !== undefined) throw refused;
    response = answered as Response;
    return await answer(api, call, input, response);
  } catch (thrown) {
    const status = response?.status;
    if (signal?.aborted) return { error: new AbortError(signal.reason), status };
    if (thrown instanceof BodyTooLarge && response !== undefined) {
      const limit = call.limits.maxResponseBytes;
      return { error: tooLarge(response, { ...place, redact: api.redact }, limit), status };
    }
    const refused = thrown instanceof ApiClientError;
    const failure = attemptFailure(thrown, { ...place, timeoutMs, timedOut }, api.redact);
    const unknown =
      !refused && failure instanceof ConnectionError && !isConnectionNotEstablished(failure);
    // [deadline] The attempt was cut short by the deadline, not by its own timeout.
    const error =
      timedOut && attemptMs < timeoutMs
        ? deadline.exceeded({ ...place, cause: thrown }, "the attempt in flight was stopped")
        : failure;
    const retryable = error === failure && !refused && failure instanceof ConnectionError;
    return { error, status, retryable, unknown };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", forwardAbort);
  }
}

/** An answer arrived: report it to the gate, decide on its status, read it unless it is retried. */
async function answer(
  api: ApiContext,
  call: Call,
  input: AttemptInput,
  response: Response,
): Promise<Tried> {
  const { gated, attempt } = input;
  const { method, url, deadline, watch } = gated;
  watch.response(response.status);
  // [rate limit] Learn the budget the answer states.
  const reported = api.gate.report(gated, response);
  if (reported !== undefined) await reported;
  let note: string | undefined;
  if (!response.ok) {
    // Decide on the status alone: a response to retry is not read.
    const decision = deadline.bound(
      retryDecision({
        attempt,
        maxRetries: call.limits.maxRetries,
        idempotent: input.idempotent,
        status: response.status,
        headers: response.headers,
        now: api.clock.now,
      }),
    );
    if (decision.retry) {
      response.body?.cancel().catch(() => undefined);
      return { retry: decision, status: response.status };
    }
    note = decision.note;
  }
  const bytes = await readBody(response, call.limits.maxResponseBytes);
  const exchange = { method, url, attempts: attempt, redact: api.redact };
  const final = response.ok
    ? succeeded(call.operation, response, bytes, exchange, watch)
    : failed(call.operation, response, bytes, exchange, note);
  return { answer: final, status: response.status, bytes: bytes.byteLength };
}
