// The logs API's rate limits, as the service states them: a burst limit per second and a daily quota,
// per token, in fixed windows (whole Unix seconds; UTC days). Every answer of the logs API carries
// `Burst-RateLimit-Limit/Remaining/Reset` and `RateLimit-Limit/Remaining/Reset` (Reset in Unix seconds)
// for each limit that is set; past a limit the answer is a 429 with the same headers and no Retry-After.

/** The limits `startEmulator({ burstLimit, dailyQuota })` enforces; unset means unlimited. */
export interface RateLimitSettings {
  readonly burstLimit?: number | undefined;
  readonly dailyQuota?: number | undefined;
}

/** What the emulator counted: requests let through and requests refused with 429. */
export interface RateLimitCounts {
  readonly accepted: number;
  readonly refused: number;
}

/** One token's windows: the second and day they count, and how many requests each took. */
interface Counter {
  second: number;
  burstUsed: number;
  day: number;
  dailyUsed: number;
}

const DAY_SECONDS = 86_400;

/** Checks the settings; returns a problem naming the option, if any. */
export function rateLimitProblem(settings: RateLimitSettings): string | undefined {
  for (const name of ["burstLimit", "dailyQuota"] as const) {
    const v = settings[name];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 1)) {
      return `${name}: must be an integer >= 1 (requests per ${name === "burstLimit" ? "second" : "day"})`;
    }
  }
  return undefined;
}

/** The length of a burst window: whole Unix seconds, as the service counts them. */
const BURST_WINDOW_MS = 1_000;

/**
 * Resolves 5 ms after the next burst window opens, so that the requests sent next share one window
 * (a request sent in a window's last moments may be counted in the next one).
 *
 * @example
 * await nextBurstWindow();
 * for (let i = 0; i < 4; i++) await fetch(`${emulator.url}/v2/logs`, { headers }); // the 4th: 429 at burstLimit 3
 */
export function nextBurstWindow(): Promise<void> {
  const wait = BURST_WINDOW_MS - (Date.now() % BURST_WINDOW_MS) + 5;
  return new Promise((resolve) => setTimeout(resolve, wait));
}

/** Counts the logs API's requests per token against the configured limits. */
export class RateLimits {
  private readonly counters = new Map<string, Counter>();
  private counts = { accepted: 0, refused: 0 };

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether any limit is set. */
  get enabled(): boolean {
    return this.settings.burstLimit !== undefined || this.settings.dailyQuota !== undefined;
  }

  /** Requests let through and refused since start (or the last `reset()`). */
  get totals(): RateLimitCounts {
    return { ...this.counts };
  }

  /** Counts a 429 another part of the emulator answered (a scenario's). */
  countRefused(): void {
    this.counts.refused++;
  }

  /** Forgets every window and count. */
  reset(): void {
    this.counters.clear();
    this.counts = { accepted: 0, refused: 0 };
  }

  /** Counts one request of `token`: the headers of its answer, and the limit that refused it, if any. */
  take(
    token: string,
    now: number = this.clock(),
  ): { headers: Record<string, string>; refused?: string } {
    const { burstLimit, dailyQuota } = this.settings;
    const second = Math.floor(now / 1000);
    const day = Math.floor(second / DAY_SECONDS);
    let c = this.counters.get(token);
    if (c === undefined)
      this.counters.set(token, (c = { second, burstUsed: 0, day, dailyUsed: 0 }));
    if (c.second !== second) Object.assign(c, { second, burstUsed: 0 });
    if (c.day !== day) Object.assign(c, { day, dailyUsed: 0 });
    let refused: string | undefined;
    if (dailyQuota !== undefined && c.dailyUsed >= dailyQuota) {
      refused = `rate limit: daily quota of ${dailyQuota} requests used up`;
    } else if (burstLimit !== undefined && c.burstUsed >= burstLimit) {
      refused = `rate limit: burst limit of ${burstLimit} requests per second reached`;
    } else {
      c.burstUsed++;
      c.dailyUsed++;
    }
    if (refused === undefined) this.counts.accepted++;
    else this.counts.refused++;
    const headers: Record<string, string> = {};
    if (burstLimit !== undefined) {
      headers["burst-ratelimit-limit"] = String(burstLimit);
      headers["burst-ratelimit-remaining"] = String(Math.max(0, burstLimit - c.burstUsed));
      headers["burst-ratelimit-reset"] = String(second + 1);
    }
    if (dailyQuota !== undefined) {
      headers["ratelimit-limit"] = String(dailyQuota);
      headers["ratelimit-remaining"] = String(Math.max(0, dailyQuota - c.dailyUsed));
      headers["ratelimit-reset"] = String((day + 1) * DAY_SECONDS);
    }
    return refused === undefined ? { headers } : { headers, refused };
  }
}
