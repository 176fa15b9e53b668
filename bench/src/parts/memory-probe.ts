// Child process of part 2: pages through every entry with one loop and reports the peak growth of the
// heap and of the RSS over the baseline taken just before, sampling `process.memoryUsage()` on a timer
// and at every page. Runs apart from the emulator so that only the client's memory is counted.
// Usage: memory-probe.ts '<json LoopTarget & { loop, sampleMs }>'. Prints one JSON line.
import { LOOPS, type LoopTarget } from "../support/loops.js";
import { trackMemoryPeak } from "../support/memory-peak.js";

const job = JSON.parse(process.argv[2] ?? "{}") as LoopTarget & {
  loop: keyof typeof LOOPS;
  sampleMs: number;
};
const memory = trackMemoryPeak(job.sampleMs);
const started = performance.now();
const entries = await LOOPS[job.loop]({ ...job, onPage: memory.sample });
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ entries, ms, ...memory.stop() })}\n`);
