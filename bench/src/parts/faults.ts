// Part 3, fault rows that can fail: one fault more than the retry budget, and a 429 asking for longer
// than the client will wait. Each row checks the error class, the attempts (the error's `attempts`
// when it has one, and always the count at the server) and the total time against the retry rule.
import {
  createLogsClient,
  type ClientOptions,
  ConnectionError,
  InternalServerError,
  RateLimitError,
} from "@api-clients/logs-client";
import { createManagementClient } from "@api-clients/management-client";
import type { BenchConfig } from "../config.js";
import type { Row } from "../report.js";
import { startFixedServer, type FixedServer, type ScriptedFault } from "../support/fixed-server.js";

/**
 * The retry rule as documented (`packages/core/src/retry-policy.ts`), restated here rather than
 * imported so that the bench checks the clients against the rule instead of against themselves:
 * 2 retries by default; the wait after failed attempt k is 500 ms × 2^(k−1) (at most 8 s) minus up
 * to 25 % jitter; a server asking for more than 60 s is not waited for.
 */
export const RETRY_RULE = {
  defaultMaxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  jitter: 0.25,
  maxRetryAfterS: 60,
} as const;

/** Scheduling slack allowed on top of the rule's waits (requests, timers on a loaded machine). */
const SLACK_MS = 500;

/** The rule's waits before attempts 2…n: [shortest, longest] total in milliseconds. */
export function backoffWindowMs(retries: number): [number, number] {
  let longest = 0;
  for (let k = 1; k <= retries; k++) {
    longest += Math.min(RETRY_RULE.initialDelayMs * 2 ** (k - 1), RETRY_RULE.maxDelayMs);
  }
  return [longest * (1 - RETRY_RULE.jitter), longest];
}

/** What a scenario expects. */
interface Expected {
  errorClass: new (...args: never[]) => Error;
  attempts: number;
  /** Total time window, milliseconds (the rule's waits; slack is added when judging). */
  waitMs: [number, number];
  /** Patterns the error message must match. */
  message?: readonly RegExp[];
}

/** One fault scenario against one entry point. */
interface Scenario {
  name: string;
  faults: ScriptedFault[];
  call: (url: string, options: ClientOptions, signal: AbortSignal) => Promise<unknown>;
  expected: Expected;
}

/** What one scenario observed. */
export interface FaultObservation {
  /** What the call threw (`undefined`: it resolved). */
  error: unknown;
  errorName: string;
  message: string;
  /** `error.attempts`, when the error carries it. */
  reportedAttempts: number | undefined;
  /** Requests the server received. */
  serverAttempts: number;
  ms: number;
}

const RETRIES = RETRY_RULE.defaultMaxRetries;
const OVER_BUDGET = RETRIES + 1;
const creds = { email: "bench@example.com", apiKey: "bench-api-key" };

/** The scenarios: one fault more than the retry budget for each kind, and a 429 beyond the cap. */
export function scenarios(): Scenario[] {
  const list = (url: string, options: ClientOptions, signal: AbortSignal) =>
    createLogsClient({ token: "bench-token", baseUrl: url, ...options }).list(
      { count: 1 },
      { signal },
    );
  const overBudget = (fault: ScriptedFault) => Array.from({ length: OVER_BUDGET }, () => fault);
  return [
    {
      name: `logs.list() under ${OVER_BUDGET}× 503 (budget: ${RETRIES} retries)`,
      faults: overBudget({ status: 503 }),
      call: list,
      expected: {
        errorClass: InternalServerError,
        attempts: OVER_BUDGET,
        waitMs: backoffWindowMs(RETRIES),
      },
    },
    {
      name: `logs.list() under ${OVER_BUDGET}× connection reset (budget: ${RETRIES} retries)`,
      faults: overBudget({ reset: true }),
      call: list,
      expected: {
        errorClass: ConnectionError,
        attempts: OVER_BUDGET,
        waitMs: backoffWindowMs(RETRIES),
      },
    },
    {
      name: `m.databases.list() under ${OVER_BUDGET}× 429 without Retry-After (budget: ${RETRIES} retries)`,
      faults: overBudget({ status: 429 }),
      call: (url, options, signal) =>
        createManagementClient({ ...creds, baseUrl: url, ...options }).databases.list({ signal }),
      expected: {
        errorClass: RateLimitError,
        attempts: OVER_BUDGET,
        waitMs: backoffWindowMs(RETRIES),
      },
    },
    {
      name: "m.databases.create() under 1× 503 (not idempotent: no retry)",
      faults: [{ status: 503 }],
      call: (url, options, signal) =>
        createManagementClient({ ...creds, baseUrl: url, ...options }).databases.create(
          { name: "bench" },
          { signal },
        ),
      expected: { errorClass: InternalServerError, attempts: 1, waitMs: [0, 0] },
    },
    {
      name: "logs.list() under 429 with Retry-After: 120 (cap: 60 s)",
      faults: [{ status: 429, retryAfter: 120 }],
      call: list,
      expected: {
        errorClass: RateLimitError,
        attempts: 1,
        waitMs: [0, 0],
        message: [/retry-after/i, /\b60(\s?s\b|\s?seconds?\b|[ ,]?000\s?ms\b)/i],
      },
    },
  ];
}

/** Runs one scenario: scripts the faults, makes the call (aborted after 15 s), counts at the server. */
export async function observe(
  server: FixedServer,
  scenario: Scenario,
  options: ClientOptions,
): Promise<FaultObservation> {
  // Recovery after the faults would mean the budget is larger than the rule's: the server answers
  // normally then, and the row fails on "no error".
  await server.setFaults(scenario.faults);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("still waiting after 15 s")), 15_000);
  const started = performance.now();
  let error: unknown;
  try {
    await scenario.call(server.url, options, controller.signal);
  } catch (e) {
    error = e;
  } finally {
    clearTimeout(timer);
  }
  const ms = performance.now() - started;
  const serverAttempts = await server.requests();
  const reported = (error as { attempts?: unknown } | undefined)?.attempts;
  return {
    error,
    errorName: error === undefined ? "no error" : error instanceof Error ? error.name : "non-Error",
    message: error instanceof Error ? error.message : String(error),
    reportedAttempts: typeof reported === "number" ? reported : undefined,
    serverAttempts,
    ms,
  };
}

/** Compares an observation with what the rule expects; returns the problems (none: pass). */
export function judge(expected: Expected, seen: FaultObservation): string[] {
  const problems: string[] = [];
  if (!(seen.error instanceof expected.errorClass)) {
    problems.push(`threw ${seen.errorName}, expected ${expected.errorClass.name}`);
  }
  const attempts = seen.reportedAttempts ?? seen.serverAttempts;
  if (attempts !== expected.attempts) {
    problems.push(`${attempts} attempts, expected ${expected.attempts}`);
  }
  if (seen.reportedAttempts !== undefined && seen.reportedAttempts !== seen.serverAttempts) {
    problems.push(
      `error.attempts ${seen.reportedAttempts} but the server saw ${seen.serverAttempts}`,
    );
  }
  const [low, high] = expected.waitMs;
  if (seen.ms < low - 20 || seen.ms > high + SLACK_MS) {
    problems.push(
      `took ${Math.round(seen.ms)} ms, rule allows ${Math.round(low)}–${Math.round(high)} ms (+${SLACK_MS} ms slack)`,
    );
  }
  for (const pattern of expected.message ?? []) {
    if (!pattern.test(seen.message)) problems.push(`message lacks ${String(pattern)}`);
  }
  return problems;
}

/**
 * Runs the fault rows against clients made with `options` (the bench uses the defaults; the harness
 * test passes `{ maxRetries: 0 }` to prove that the rows fail when retries are broken).
 */
export async function runFaultRows(
  _config: BenchConfig,
  options: ClientOptions = {},
): Promise<Row[]> {
  const server = await startFixedServer();
  try {
    const rows: Row[] = [];
    for (const scenario of scenarios()) {
      const seen = await observe(server, scenario, options);
      const problems = judge(scenario.expected, seen);
      const { expected } = scenario;
      const attempts = seen.reportedAttempts ?? seen.serverAttempts;
      const [low, high] = expected.waitMs;
      rows.push({
        part: 3,
        name: `faults: ${scenario.name}`,
        ours: `${seen.errorName}, ${attempts} attempt${attempts === 1 ? "" : "s"}, ${Math.round(seen.ms)} ms`,
        peer:
          `${expected.errorClass.name}, ${expected.attempts} attempt${expected.attempts === 1 ? "" : "s"}, ` +
          (high === 0 ? "no wait" : `${Math.round(low)}–${Math.round(high)} ms`),
        unit: "",
        ratio: null,
        target: "as the retry rule says",
        verdict: problems.length === 0 ? "pass" : "FAIL",
        note:
          (problems.length === 0 ? "" : `${problems.join("; ")}. `) +
          `attempts: ${seen.reportedAttempts === undefined ? "no error.attempts; " : `error.attempts ${seen.reportedAttempts}, `}server ${seen.serverAttempts}; ` +
          `message: ${seen.message.slice(0, 160)}`,
      });
    }
    return rows;
  } finally {
    await server.stop();
  }
}
