// Small helpers for timing and summarising rounds.

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median: no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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
 * result per variant.
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
