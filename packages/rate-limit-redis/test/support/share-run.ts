/**
 * The scale proof's runner: N child processes, each its own client and Redis limiter, share one
 * account of an emulator with a burst limit for a fixed time; optionally Redis is killed and restarted
 * (empty) part-way. Used by `test/scale.test.ts` and by the bench's part 7.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Emulator } from "@api-clients/emulator";

const CHILD = fileURLToPath(new URL("./share-child.mjs", import.meta.url));

/** A warning a child's client logged, and when (Unix ms). */
export interface ChildWarning {
  at: number;
  message: string;
}

/** What one child reported. */
export interface ShareChild {
  calls: number;
  errors: Record<string, number>;
  firstMs: number;
  lastMs: number;
  warnings: ChildWarning[];
  exitCode: number | null;
}

/** What a run did, as the emulator counted it. */
export interface ShareRun {
  children: ShareChild[];
  /** Requests the emulator let through, and refused with 429, during the run. */
  accepted: number;
  refused: number;
  /** From the first child's start to the last child's end, in milliseconds. */
  elapsedMs: number;
  /** Accepted requests over what the burst limit allows in `elapsedMs`. */
  budgetUsed: number;
  /** The largest distance of a child's calls from the mean, as a share of the mean. */
  unfairness: number;
  /** From spawning the children to their reports, in milliseconds (the run's cost). */
  wallMs: number;
}

/** Runs `processes` children for `durationMs`; `whileRunning` is called once they all started. */
export async function runSharing(options: {
  emulator: Emulator;
  burstLimit: number;
  processes: number;
  durationMs: number;
  inFlight: number;
  redisUrl?: string | undefined;
  whileRunning?: () => Promise<void>;
}): Promise<ShareRun> {
  const wallStarted = performance.now();
  const { emulator } = options;
  const children = Array.from({ length: options.processes }, () =>
    spawn(
      process.execPath,
      [
        CHILD,
        emulator.url,
        emulator.credentials.logsToken,
        options.redisUrl ?? "none",
        String(options.durationMs),
        String(options.inFlight),
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
    const done = new Promise<ShareChild>((resolve) =>
      child.on("exit", (exitCode) => {
        const line = out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .pop();
        const parsed = line ? (JSON.parse(line) as Partial<ShareChild>) : {};
        resolve({
          calls: 0,
          errors: { "no report": 1 },
          firstMs: 0,
          lastMs: 0,
          warnings: [],
          ...parsed,
          exitCode,
        });
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
  const elapsedMs =
    Math.max(...results.map((r) => r.lastMs)) - Math.min(...results.map((r) => r.firstMs));
  const mean = results.reduce((sum, r) => sum + r.calls, 0) / results.length;
  return {
    children: results,
    accepted,
    refused,
    elapsedMs,
    budgetUsed: accepted / ((options.burstLimit * elapsedMs) / 1000),
    unfairness: Math.max(...results.map((r) => Math.abs(r.calls - mean) / mean)),
    wallMs: performance.now() - wallStarted,
  };
}

/** A run with Redis killed part-way and restarted empty: when the processes noticed, and the overshoot. */
export interface DeathRun extends ShareRun {
  /** The longest time from the kill to a process's warning that it paces alone, in milliseconds. */
  aloneAfterMs: number;
  /** The longest time from the restart to a process's warning that the budget is shared again. */
  sharedAgainAfterMs: number;
  /** 429s over all requests of the run. */
  overshoot: number;
}

/** Runs `processes` children sharing through `redis`, killed after `killAfterMs` for `downMs`. */
export async function runRedisDeath(options: {
  emulator: Emulator;
  burstLimit: number;
  processes: number;
  durationMs: number;
  inFlight: number;
  redis: { url: string; kill(): Promise<void>; restart(): Promise<void> };
  killAfterMs: number;
  downMs: number;
}): Promise<DeathRun> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let killedAt = 0;
  let restartedAt = 0;
  const run = await runSharing({
    ...options,
    redisUrl: options.redis.url,
    whileRunning: async () => {
      // Each time is taken as the step starts: a child may notice before this process sees it done.
      await sleep(options.killAfterMs);
      killedAt = Date.now();
      await options.redis.kill();
      await sleep(options.downMs);
      restartedAt = Date.now();
      await options.redis.restart();
    },
  });
  const first = (warnings: ChildWarning[], after: number, pattern: RegExp) =>
    (warnings.find((w) => w.at >= after && pattern.test(w.message))?.at ?? Infinity) - after;
  return {
    ...run,
    aloneAfterMs: Math.max(
      ...run.children.map((c) => first(c.warnings, killedAt, /cannot be reached|did not answer/)),
    ),
    sharedAgainAfterMs: Math.max(
      ...run.children.map((c) => first(c.warnings, restartedAt, /answers again/)),
    ),
    overshoot: run.refused / (run.accepted + run.refused),
  };
}

/** One line of figures for a run, for the test's output and the bench's notes. */
export function describeRun(name: string, run: ShareRun, burst: number): string {
  const calls = run.children.map((c) => c.calls);
  return (
    `${name}: ${run.accepted} accepted, ${run.refused} 429s in ${run.elapsedMs} ms ` +
    `(${(run.budgetUsed * 100).toFixed(1)} % of ${burst}/s), calls per process ${Math.min(...calls)}–` +
    `${Math.max(...calls)} (±${(run.unfairness * 100).toFixed(1)} % of a fair share), ` +
    `the whole run ${Math.round(run.wallMs)} ms`
  );
}
