/**
 * The runners of the multi-process proofs: N child processes, each its own client (and Redis
 * limiter), on one account of an emulator with a burst limit. `runSharing`: each calls for a fixed
 * time, optionally with Redis killed and restarted (empty) part-way (`test/scale.test.ts`);
 * `runPagers`: each pages the whole account (`test/multi-process.test.ts`). Both used by the bench's
 * part 7. Every child is started and warm before the run starts (a line on its stdin).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Emulator } from "@api-clients/emulator";

const SHARE_CHILD = fileURLToPath(new URL("./share-child.mjs", import.meta.url));
const PAGER_CHILD = fileURLToPath(new URL("./pager-child.mjs", import.meta.url));

/**
 * Spawns `processes` children of `script` with `args`, waits until every one printed `ready`, resets
 * the emulator's counts, starts them all (`go` on stdin), calls `whileRunning` and returns each
 * child's last JSON line (`fallback` and what it printed when it printed none) with its exit code,
 * and when they were started (Unix ms).
 */
async function runChildren<T>(options: {
  script: string;
  args: string[];
  processes: number;
  emulator: Emulator;
  /** What a child that printed no JSON line reports (given what it printed), or the defaults (undefined). */
  fallback: (out: string | undefined) => T;
  whileRunning?: ((goAt: number) => Promise<void>) | undefined;
}): Promise<{ goAt: number; results: (T & { exitCode: number | null })[] }> {
  const children = Array.from({ length: options.processes }, () =>
    spawn(process.execPath, [options.script, ...options.args], {
      stdio: ["pipe", "pipe", "inherit"],
    }),
  );
  const outputs = children.map((child) => {
    let out = "";
    const ready = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("ready\n")) resolve();
      }),
    );
    const done = new Promise<T & { exitCode: number | null }>((resolve) =>
      child.on("exit", (exitCode) => {
        const line = out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .pop();
        const parsed = line ? (JSON.parse(line) as Partial<T>) : {};
        resolve({ ...options.fallback(line ? undefined : out), ...parsed, exitCode });
      }),
    );
    return { ready, done };
  });
  // Process start-up is not part of the run: every child is started and warm first.
  await Promise.all(outputs.map((o) => o.ready));
  options.emulator.reset();
  const goAt = Date.now();
  for (const child of children) child.stdin.end("go\n");
  await options.whileRunning?.(goAt);
  return { goAt, results: await Promise.all(outputs.map((o) => o.done)) };
}

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
  /** When each call that was answered settled (Unix ms, the child's clock: the same machine). */
  answeredAt: number[];
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
  /** Accepted requests over what the burst limit allows in `elapsedMs` (start and tail included). */
  wholeRunBudgetUsed: number;
  /**
   * The steady part of the run: whole burst windows (wall-clock seconds, as the emulator counts them)
   * from 1 s after the start to the end of the calling, as [from, to) in Unix ms.
   */
  steady: { from: number; to: number };
  /** Requests the emulator let through in the steady part over what the burst limit allows in it. */
  budgetUsed: number;
  /** Calls answered per child in the steady part. */
  steadyCalls: number[];
  /** The largest distance of a child's steady-part calls from their mean, as a share of the mean. */
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
  let counted: Promise<[number, number]> | undefined;
  let steady = { from: 0, to: 0 };
  const { results } = await runChildren<Omit<ShareChild, "exitCode">>({
    script: SHARE_CHILD,
    args: [
      emulator.url,
      emulator.credentials.logsToken,
      options.redisUrl ?? "none",
      String(options.durationMs),
      String(options.inFlight),
    ],
    processes: options.processes,
    emulator,
    fallback: (out) => ({
      calls: 0,
      errors: out === undefined ? {} : { "no report": 1 },
      firstMs: 0,
      lastMs: 0,
      answeredAt: [],
      warnings: [],
    }),
    whileRunning: async (goAt) => {
      // The steady part: whole seconds (the emulator's burst windows) from 1 s in to the end of calling.
      const from = Math.ceil((goAt + 1_000) / 1_000) * 1_000;
      const to = Math.max(from + 1_000, Math.floor((goAt + options.durationMs) / 1_000) * 1_000);
      steady = { from, to };
      const snapshot = (at: number) =>
        new Promise<number>((resolve) =>
          setTimeout(() => resolve(emulator.rateLimits.accepted), at - Date.now()),
        );
      counted = Promise.all([snapshot(from), snapshot(to)] as const);
      await options.whileRunning?.();
    },
  });
  const { from, to } = steady;
  const [acceptedFrom, acceptedTo] = (await counted) ?? [0, 0];
  const { accepted, refused } = emulator.rateLimits;
  const elapsedMs =
    Math.max(...results.map((r) => r.lastMs)) - Math.min(...results.map((r) => r.firstMs));
  const steadyCalls = results.map((r) => r.answeredAt.filter((t) => t >= from && t < to).length);
  const mean = steadyCalls.reduce((sum, n) => sum + n, 0) / results.length;
  return {
    children: results,
    accepted,
    refused,
    elapsedMs,
    wholeRunBudgetUsed: accepted / ((options.burstLimit * elapsedMs) / 1000),
    steady,
    budgetUsed: (acceptedTo - acceptedFrom) / ((options.burstLimit * (to - from)) / 1000),
    steadyCalls,
    unfairness: mean === 0 ? 1 : Math.max(...steadyCalls.map((n) => Math.abs(n - mean) / mean)),
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
  const calls = run.steadyCalls;
  const steadyS = (run.steady.to - run.steady.from) / 1000;
  return (
    `${name}: ${run.accepted} accepted, ${run.refused} 429s in ${run.elapsedMs} ms ` +
    `(${(run.wholeRunBudgetUsed * 100).toFixed(1)} % of ${burst}/s, start and tail included); ` +
    `steady ${steadyS} s: ${(run.budgetUsed * 100).toFixed(1)} % of the budget used, answered calls ` +
    `per process ${Math.min(...calls)}–${Math.max(...calls)} (±${(run.unfairness * 100).toFixed(1)} % ` +
    `of a fair share); the whole run ${Math.round(run.wallMs)} ms with process start-up`
  );
}

/** What one pager child reported. */
export interface PagerResult {
  pages: number;
  entries: number;
  keys: number;
  firstMs: number;
  lastMs: number;
  exitCode: number | null;
  error?: string;
}

/** What a run of N pagers did, as the emulator counted it. */
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

/** Runs `processes` pagers; `redisUrl` undefined means each child keeps its own in-process gate. */
export async function runPagers(options: {
  emulator: Emulator;
  processes: number;
  count: number;
  redisUrl?: string | undefined;
  /** Called once every child has started paging (to kill Redis mid-run, say). */
  whileRunning?: () => Promise<void>;
}): Promise<MultiProcessRun> {
  const { emulator } = options;
  const { results } = await runChildren<Omit<PagerResult, "exitCode">>({
    script: PAGER_CHILD,
    args: [
      emulator.url,
      emulator.credentials.logsToken,
      options.redisUrl ?? "none",
      String(options.count),
    ],
    processes: options.processes,
    emulator,
    fallback: (out) => ({
      pages: 0,
      entries: 0,
      keys: 0,
      firstMs: 0,
      lastMs: 0,
      ...(out === undefined ? {} : { error: out }),
    }),
    whileRunning: options.whileRunning,
  });
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
