// Child process of part 2: pages through every entry with one loop and reports the peak growth of the
// heap and of the RSS over the baseline taken just before, sampling `process.memoryUsage()` on a timer
// and at every page. Runs apart from the emulator so that only the client's memory is counted.
// Usage: memory-probe.ts '<json LoopTarget & { loop, sampleMs }>'. Prints one JSON line.
import { LOOPS, type LoopTarget } from "../support/loops.js";

const job = JSON.parse(process.argv[2] ?? "{}") as LoopTarget & {
  loop: keyof typeof LOOPS;
  sampleMs: number;
};
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const base = process.memoryUsage();
let peakHeap = base.heapUsed;
let peakRss = base.rss;
const sample = () => {
  const m = process.memoryUsage();
  if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  if (m.rss > peakRss) peakRss = m.rss;
};
const timer = setInterval(sample, job.sampleMs);
const started = performance.now();
const entries = await LOOPS[job.loop]({ ...job, onPage: sample });
const ms = performance.now() - started;
sample();
clearInterval(timer);
const MiB = 1024 * 1024;
process.stdout.write(
  `${JSON.stringify({
    entries,
    ms,
    heapGrowthMiB: (peakHeap - base.heapUsed) / MiB,
    rssGrowthMiB: (peakRss - base.rss) / MiB,
    baseHeapMiB: base.heapUsed / MiB,
    baseRssMiB: base.rss / MiB,
  })}\n`,
);
