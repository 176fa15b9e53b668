// When Redis keeps failing (no answer in time, refused connections, wrong replies), asking it again on
// every attempt costs each attempt a wait for nothing. The breaker stops asking for a back-off period
// after a few failures in a row (open: every attempt paces in process), then lets one attempt ask
// (half-open): an answer closes it, a failure opens it again for a longer period.

/** Failures in a row that open the breaker. */
export const FAILURES_TO_OPEN = 3;

/** Back-off periods after each opening in a row, in milliseconds (the last one repeats). */
export const BACK_OFF_MS = [1_000, 2_000] as const;

/** The breaker's state: whether to ask Redis now, and what changed. */
export class Breaker {
  #failures = 0;
  #openings = 0;
  /** When the breaker lets a probe through (Unix ms on `now`), while open. */
  #openUntil: number | undefined;
  #probing = false;

  constructor(private readonly now: () => number) {}

  /** Whether this attempt may ask Redis; while half-open, only the one probe may. */
  allows(): boolean {
    if (this.#openUntil === undefined) return true;
    if (this.#probing || this.now() < this.#openUntil) return false;
    this.#probing = true;
    return true;
  }

  /** Whether the breaker is open (or half-open, a probe out). */
  get open(): boolean {
    return this.#openUntil !== undefined;
  }

  /** Redis answered: returns true when that closed an open breaker. */
  succeeded(): boolean {
    const wasOpen = this.#openUntil !== undefined;
    this.#failures = 0;
    this.#openings = 0;
    this.#openUntil = undefined;
    this.#probing = false;
    return wasOpen;
  }

  /** Redis failed: returns the back-off period when that opened the breaker (again), else undefined. */
  failed(): number | undefined {
    this.#failures++;
    if (this.#openUntil === undefined && this.#failures < FAILURES_TO_OPEN) return undefined;
    if (this.#openUntil !== undefined && !this.#probing) return undefined;
    const period = BACK_OFF_MS[Math.min(this.#openings, BACK_OFF_MS.length - 1)]!;
    this.#openings++;
    this.#openUntil = this.now() + period;
    this.#probing = false;
    return period;
  }
}
