// One call, as every step of the request path sees it: an immutable value made once by its entry
// point (`request()`, a method, or a `raw` call), and the constant parts of the client it runs in.
import { ApiClientError } from "../errors.js";
import type { OperationSpec } from "../operation.js";
import type { Limits, ResolvedOptions } from "./client-options.js";
import type { RequestCheck } from "./schema.js";
import type { RateLimitGate } from "./rate-limit-gate.js";

/** Where the request path reads the time and waits: the real clock, or a test's. */
export interface Clock {
  /** Milliseconds since the Unix epoch (`Date.now`). */
  now(): number;
  /** Waits `ms`; rejects with the signal's reason when it aborts (before or during). */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/** One call: what to send, under which limits, and how its answer is handed back. */
export interface Call {
  /** The operation (undefined for a raw call to a path the spec does not have). */
  readonly operation: OperationSpec | undefined;
  /** Its operationId (`""` when there is none). */
  readonly operationId: string;
  /** Shared by the call's events and traces. */
  readonly callId: string;
  /**
   * `true` (`request()`, the methods): an HTTP error answer is thrown as the typed error, and the
   * caller finishes the call's watch once it read the answer; `false` (`raw`): the error answer is
   * handed back to openapi-fetch as `{ error, response }`.
   */
  readonly typed: boolean;
  readonly limits: Limits;
  /** The caller's signal (none: nothing can abort the call). */
  readonly signal: AbortSignal | undefined;
  /** What to report about fields the spec does not list (`warning` events). */
  readonly warnings: readonly string[] | undefined;
  /** The `fetch` each attempt goes through: the client's, or a raw call's own `fetch` option. */
  readonly fetch: typeof fetch;
}

/** What stays the same for every call of one client. */
export interface ApiContext {
  /** Which API, as tracing names it. */
  readonly api: string;
  readonly options: ResolvedOptions;
  /** Full `Authorization` value, set on each attempt. */
  readonly authorization: string;
  /** Removes the client's secrets from text a server may have echoed. */
  readonly redact: (text: string) => string;
  readonly gate: RateLimitGate;
  readonly clock: Clock;
  /** The spec's rules for each call. */
  readonly check: RequestCheck;
  /** Rules the spec states only in prose, by operationId. */
  readonly bodyChecks: Readonly<Record<string, (body: unknown) => void>> | undefined;
}

/** A new call id: nine base-36 characters. */
export function newCallId(): string {
  return Math.random().toString(36).slice(2, 11);
}

/**
 * Runs the spec's checks on the values the caller gave (before anything is serialized); returns the
 * warnings about fields the spec does not list, or throws the `ValidationError`.
 */
export function checkInput(
  api: ApiContext,
  operation: OperationSpec | undefined,
  operationId: string,
  input: { path?: unknown; query?: unknown; body?: unknown },
): readonly string[] | undefined {
  if (!operation) return;
  const body = input.body === undefined ? undefined : { value: input.body };
  const warnings = api.check(
    operation,
    input.path as object | undefined,
    input.query as object | undefined,
    body,
  );
  api.bodyChecks?.[operationId]?.(input.body);
  return warnings;
}

/**
 * Marks the error of a state-changing call that may have reached the server with an unknown outcome
 * (a timeout or reset after sending, or a 5xx, on any attempt): `maybeApplied: true`, and a sentence.
 */
export function maybeApplied<E>(error: E, uncertain: boolean): E {
  if (uncertain && error instanceof ApiClientError && !error.maybeApplied) {
    error.maybeApplied = true;
    error.message += " The change may have been applied (an attempt's outcome is unknown).";
  }
  return error;
}
