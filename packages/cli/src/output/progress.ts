// The export progress line on stderr: rewritten in place on a terminal, printed every few seconds
// otherwise (so logs of a CI job show it moving), and always once at the end.

/** Counters shown by the progress line. */
export interface ProgressCounts {
  entries: number;
  pages: number;
}

const TTY_INTERVAL_MS = 100;
const LOG_INTERVAL_MS = 5_000;

/** Formats a number with thousands separators, independent of the locale. */
export function count(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** `12.3 s` or `2 min 5 s`. */
export function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** A progress line on a stream. */
export class Progress {
  private readonly started = performance.now();
  private lastDraw = 0;
  private drawn = false;
  /** While a rate-limit wait lasts: when it ends (`performance.now()` ms) and how long it is. */
  private wait: { until: number; ms: number } | undefined;

  constructor(
    private readonly stream: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly label: string,
  ) {}

  /** The line for the current counts. */
  line({ entries, pages }: ProgressCounts): string {
    const elapsed = performance.now() - this.started;
    const rate = elapsed > 0 ? (entries * 1000) / elapsed : 0;
    const waiting =
      this.wait !== undefined && this.wait.until > performance.now()
        ? ` · waiting ${(this.wait.ms / 1000).toFixed(1)} s for the rate limit`
        : "";
    return `${this.label} ${count(entries)} entries · ${count(pages)} pages · ${count(rate)} entries/s · ${duration(elapsed)}${waiting}`;
  }

  /**
   * The next request waits `ms` for the rate limit: shown at once on a terminal, and in a log when
   * the wait is 1 s or longer.
   */
  waiting(ms: number, counts: ProgressCounts): void {
    this.wait = { until: performance.now() + ms, ms };
    const tty = this.stream.isTTY === true;
    if (!tty && ms < 1_000) return;
    this.lastDraw = 0;
    this.update(counts);
  }

  /** Shows the counts if enough time passed since the last update. */
  update(counts: ProgressCounts): void {
    const now = performance.now();
    const tty = this.stream.isTTY === true;
    if (now - this.lastDraw < (tty ? TTY_INTERVAL_MS : LOG_INTERVAL_MS)) return;
    this.lastDraw = now;
    this.drawn = true;
    this.stream.write(tty ? `\r\x1b[2K${this.line(counts)}` : `${this.line(counts)}\n`);
  }

  /** Replaces the line by the final one. */
  finish(counts: ProgressCounts): void {
    const tty = this.stream.isTTY === true;
    this.stream.write(`${tty && this.drawn ? "\r\x1b[2K" : ""}${this.line(counts)}\n`);
  }
}
