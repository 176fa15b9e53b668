/**
 * Random rate-limit header sets for the fuzz tests (core's and the Redis limiter's): valid ones (as
 * the service sends them), hostile ones (values no window can mean, any form) and mixed ones, from a
 * seeded generator so a failure can be replayed.
 */

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const HOSTILE_COUNTS = [
  "0",
  "-1",
  "1.5",
  "1e3",
  "0x10",
  " 7 ",
  "",
  "abc",
  "2147483649",
  "9223372036854775808",
  "18446744073709551615",
  "9".repeat(400),
  "5, 6",
];

/** One header set and the status it came with. */
export interface HeaderSet {
  status: number;
  headers: Record<string, string>;
}

/** A random header set stated at `now` (Unix ms): each of the six headers valid, hostile or absent. */
export function randomHeaderSet(random: () => number, now: number): HeaderSet {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const int = (max: number) => Math.floor(random() * (max + 1));
  const seconds = Math.floor(now / 1000);
  const count = () => (random() < 0.7 ? String(int(100)) : pick(HOSTILE_COUNTS));
  const limit = () => (random() < 0.7 ? String(1 + int(100)) : pick(HOSTILE_COUNTS));
  const burstReset = () =>
    random() < 0.7
      ? pick([String(int(2)), String(seconds + int(2))])
      : pick([
          String(seconds + 3 + int(86_400)),
          "9000000000000",
          "1",
          "1.5",
          "-1",
          "1e10",
          String(seconds * 1000),
          "9".repeat(400),
          "Fri, 27 Nov 2026 16:00:00 GMT",
        ]);
  const dailyReset = () =>
    random() < 0.7
      ? String(seconds + int(86_400))
      : pick([String(seconds + 2 * 86_400), "9000000000000", "-5", "0x1", "9".repeat(30)]);
  const headers: Record<string, string> = {};
  const maybe = (name: string, value: () => string) => {
    if (random() < 0.8) headers[name] = value();
  };
  maybe("burst-ratelimit-limit", limit);
  maybe("burst-ratelimit-remaining", count);
  maybe("burst-ratelimit-reset", burstReset);
  if (random() < 0.5) {
    // A quota used up (valid) is rare and resets soon, and a valid count is large: a quota that runs
    // out would rightly hold every later call until its reset, up to a day, and nothing after it
    // would be tried (the lowest of random counts soon runs out).
    const usedUp = random() < 0.03;
    maybe("ratelimit-limit", limit);
    maybe("ratelimit-remaining", () =>
      usedUp ? "0" : random() < 0.7 ? String(1_000_000 + int(1_000_000)) : pick(HOSTILE_COUNTS),
    );
    maybe("ratelimit-reset", usedUp ? () => String(seconds + int(2)) : dailyReset);
  }
  if (random() < 0.2) headers["retry-after"] = pick(["0", "1", "2", "120", "-1", "1e3", "x"]);
  const status = pick([200, 200, 200, 200, 200, 200, 429, 503]);
  return { status, headers };
}
