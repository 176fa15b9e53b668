// The memory measurement of the probe child processes: a baseline after gc(), then the peak of the
// heap and of the RSS over it, sampled on a timer and whenever the probe asks.

/** Peak growth over the baseline, MiB. */
export interface MemoryGrowth {
  heapGrowthMiB: number;
  rssGrowthMiB: number;
}

const MiB = 1024 * 1024;

/**
 * Runs `gc()` (when exposed), takes the baseline, and samples `process.memoryUsage()` every `sampleMs`
 * until `stop()`, which samples once more and returns the peak growth.
 */
export function trackMemoryPeak(sampleMs: number): {
  sample: () => void;
  stop: () => MemoryGrowth & { baseHeapMiB: number; baseRssMiB: number };
} {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sample = () => {
    const m = process.memoryUsage();
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.rss > peakRss) peakRss = m.rss;
  };
  const timer = setInterval(sample, sampleMs);
  return {
    sample,
    stop: () => {
      sample();
      clearInterval(timer);
      return {
        heapGrowthMiB: (peakHeap - base.heapUsed) / MiB,
        rssGrowthMiB: (peakRss - base.rss) / MiB,
        baseHeapMiB: base.heapUsed / MiB,
        baseRssMiB: base.rss / MiB,
      };
    },
  };
}
