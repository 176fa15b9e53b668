// The machine a run was taken on, for results.json and the README.
import { readFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";

/** Facts about the machine that matter for the figures. */
export interface Machine {
  nproc: number;
  node: string;
  cpu: string;
  memoryGiB: number;
  platform: string;
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return match?.[1]?.trim() ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Describes this machine. */
export function machine(): Machine {
  return {
    nproc: availableParallelism(),
    node: process.version,
    cpu: cpuModel(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform}-${process.arch}`,
  };
}
