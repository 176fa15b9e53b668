/**
 * N child processes, each its own client, page through the same account of an emulator with a burst
 * limit; optionally each with its own Redis limiter (one shared budget), optionally with Redis killed
 * part-way. Used by the multi-process test and by the bench's multi-process part.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Emulator } from "@api-clients/emulator";

const CHILD = fileURLToPath(new URL("./pager-child.mjs", import.meta.url));

/** What one child reported. */
export interface PagerResult {
  pages: number;
  entries: number;
  keys: number;
  firstMs: number;
  lastMs: number;
  exitCode: number | null;
  error?: string;
}

/** What a run of N children did, as the emulator counted it. */
export interface MultiProcessRun {
  children: PagerResult[];
  /** Requests the emulator let through and refused with 429 during the run. */
  accepted: number;
  refused: number;
  /** From the first child's start to the last child's end, in milliseconds. */
  elapsedMs: number;
  /** Accepted requests per second over `elapsedMs`. */
  requestsPerSecond: number;
}

/** Runs `processes` children; `redisUrl` undefined means each child keeps its own in-process gate. */
export async function runPagers(options: {
  emulator: Emulator;
  processes: number;
  count: number;
  redisUrl?: string | undefined;
  /** Called once every child has started paging (to kill Redis mid-run, say). */
  whileRunning?: () => Promise<void>;
}): Promise<MultiProcessRun> {
  const { emulator } = options;
  emulator.reset();
  const children = Array.from({ length: options.processes }, () =>
    spawn(
      process.execPath,
      [
        CHILD,
        emulator.url,
        emulator.credentials.logsToken,
        options.redisUrl ?? "none",
        String(options.count),
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    ),
  );
  const outputs = children.map((child) => {
    let out = "";
    const ready = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("ready\n")) resolve();
      }),
    );
    const done = new Promise<PagerResult>((resolve) =>
      child.on("exit", (exitCode) => {
        const line = out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .pop();
        const parsed = line ? (JSON.parse(line) as Partial<PagerResult>) : { error: out };
        resolve({ pages: 0, entries: 0, keys: 0, firstMs: 0, lastMs: 0, ...parsed, exitCode });
      }),
    );
    return { ready, done };
  });
  await Promise.all(outputs.map((o) => o.ready));
  emulator.reset();
  for (const child of children) child.stdin.end("go\n");
  await options.whileRunning?.();
  const results = await Promise.all(outputs.map((o) => o.done));
  const { accepted, refused } = emulator.rateLimits;
  const started = Math.min(...results.map((r) => r.firstMs));
  const elapsedMs = Math.max(...results.map((r) => r.lastMs)) - started;
  return {
    children: results,
    accepted,
    refused,
    elapsedMs,
    requestsPerSecond: (accepted / elapsedMs) * 1000,
  };
}
