// The bound on a whole call (`deadlineMs`): every attempt's timer is cut to what is left of it, and a
// wait (a retry's or the rate limit's) that would end after it is not started.
import { DeadlineExceededError } from "../errors.js";
import type { RetryDecision } from "./retry-policy.js";

/** The deadline of one call, from the moment it starts. */
export class Deadline {
  /** When the call must be over, in Unix milliseconds. */
  readonly at: number;

  constructor(readonly ms: number) {
    this.at = Date.now() + ms;
  }

  /** Milliseconds left (0 once passed). */
  remaining(): number {
    return Math.max(0, this.at - Date.now());
  }

  /** Whether a wait of `ms` started now would end after the deadline. */
  crossedBy(ms: number): boolean {
    return Date.now() + ms > this.at;
  }

  /** The error for a call the deadline ends; `reason` says what it stopped; `refused` before it passed. */
  exceeded(
    request: { method: string; url: string; attempts: number; cause?: unknown },
    reason: string,
    refused?: boolean,
  ): DeadlineExceededError {
    return new DeadlineExceededError({ ...request, deadlineMs: this.ms, reason, refused });
  }

  /** A retry whose wait would end after the deadline is not made; the note names the deadline. */
  bound(decision: RetryDecision): RetryDecision {
    if (!decision.retry || !this.crossedBy(decision.delayMs)) return decision;
    const note =
      `not retried: the wait of ${seconds(decision.delayMs)} before the next attempt ` +
      `would end after the call's deadline of ${this.ms} ms (deadlineMs)`;
    return { retry: false, reason: `${decision.reason}; deadline`, note };
  }
}

/** Milliseconds as seconds with one decimal, e.g. `0.6 s`. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
