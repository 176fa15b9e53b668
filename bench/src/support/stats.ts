// Small helpers for timing and summarising rounds: medians, quartiles of per-round ratios, interleaving.

/** The q-quantile (0 ≤ q ≤ 1) of a non-empty list, interpolating linearly between order statistics. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error("quantile: no values");
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Median and interquartile range of a set of rounds (for example per-round ratios). */
export interface Spread {
  /** The median round. */
  median: number;
  /** First quartile (25th percentile). */
  q1: number;
  /** Third quartile (75th percentile). */
  q3: number;
  /** How many rounds. */
  rounds: number;
}

/** Median, quartiles and count of a non-empty list. */
export function summarize(values: readonly number[]): Spread {
  return {
    median: quantile(values, 0.5),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    rounds: values.length,
  };
}

/**
 * Per-round ratios `ours[i] / base[i]` of two series measured in the same interleaved rounds (so that
 * a slow moment of the machine hits both sides of a ratio alike), summarised.
 */
export function roundRatios(ours: readonly number[], base: readonly number[]): Spread {
  if (ours.length !== base.length || ours.length === 0) {
    throw new Error(`roundRatios: ${ours.length} vs ${base.length} rounds`);
  }
  return summarize(ours.map((value, i) => value / base[i]!));
}

/** `min–max` of a list, for notes on spread. */
export function spread(values: readonly number[], digits = 0): string {
  const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: digits });
  return `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;
}

/** Busy-waits `ms` milliseconds: a stand-in for synchronous consumer work. */
export function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Spin.
  }
}

/**
 * Runs each variant `rounds` times, alternating (a, b, c, a, b, c, …) and rotating which goes first in
 * each round, so that drift in the machine's speed hits every variant alike. Returns every round's
 * result per variant, in round order (index i of every variant belongs to the same round).
 */
export async function interleave<T>(
  variants: Readonly<Record<string, () => Promise<T>>>,
  rounds: number,
): Promise<Record<string, T[]>> {
  const names = Object.keys(variants);
  const results: Record<string, T[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      results[name]!.push(await variants[name]!());
    }
  }
  return results;
}

/** Rejects when `promise` does not settle within `ms` (every loop of the harness is bounded in time). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still running after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
