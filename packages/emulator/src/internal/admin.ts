// The admin API under /__emulator/: faults, reset, snapshot/restore and log appends over HTTP.
// Every input is bounded (src/internal/limits.ts) and large appends run in slices, so one call can
// neither break later answers nor keep other requests waiting.
import { faultProblem, type FaultRule } from "./faults.js";
import { entriesProblem, LIMITS, simulateProblem } from "./limits.js";
import { snapshotProblem } from "./snapshot-checks.js";
import { HttpError } from "./management-state.js";

/** What the admin API drives (the emulator's own methods). */
export interface AdminTarget {
  readonly faults: { add(rule: FaultRule): void; clear(): void; readonly size: number };
  readonly logs: {
    append(entries: readonly Record<string, unknown>[]): unknown;
    simulateMessage(opts: Record<string, unknown>): unknown;
    readonly size: number;
  };
  reset(): void;
  snapshot(): unknown;
  /** The request log, oldest first. */
  requests(): unknown;
  /** Rate-limit counts (requests let through, 429s). */
  rateLimits(): unknown;
  /** Named scenarios. */
  readonly scenarios: {
    start(name: unknown, options: Record<string, unknown>): void;
    clear(): void;
    running(): unknown;
  };
  restore(snapshot: never): void;
}

/** Entries appended between two turns of the event loop, at most, and at first. */
const SLICE_ENTRIES = 1_000;
const FIRST_SLICE = 250;
/** Time one slice may keep the event loop, milliseconds; slices shrink to stay under it. */
const SLICE_BUDGET_MS = 20;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const bad = (message: string): HttpError => new HttpError(400, message);

/**
 * Appends in slices, yielding to the event loop between them: a slice starts at `FIRST_SLICE`
 * entries, halves while one takes longer than `SLICE_BUDGET_MS` (inserting old times into a large
 * store is slow) and grows up to `SLICE_ENTRIES` while they are fast. The yield is a timer, not
 * `setImmediate`: from the poll phase an immediate would run before any other I/O is read.
 */
async function appendInSlices(
  target: AdminTarget,
  entries: readonly Record<string, unknown>[],
): Promise<void> {
  let size = FIRST_SLICE;
  for (let i = 0; i < entries.length;) {
    const started = performance.now();
    target.logs.append(entries.slice(i, i + size));
    i += size;
    const took = performance.now() - started;
    if (took > SLICE_BUDGET_MS) size = Math.max(1, Math.floor(size / 2));
    else if (took < SLICE_BUDGET_MS / 4) size = Math.min(SLICE_ENTRIES, size * 2);
    if (i < entries.length) await new Promise((r) => setTimeout(r, 0));
  }
}

/** Builds the handler of `/__emulator/...` requests. */
export function createAdmin(
  target: AdminTarget,
): (method: string, path: string, body: unknown) => Promise<{ status: number; body: unknown }> {
  const routes: Record<string, (body: unknown) => unknown> = {
    "POST /__emulator/faults": (body) => {
      const rules = Array.isArray(body) ? body : [body];
      if (rules.length > LIMITS.faultsPerRequest) {
        throw bad(
          `body: must hold at most ${LIMITS.faultsPerRequest} fault rules per request (got ${rules.length})`,
        );
      }
      for (const r of rules) {
        const problem = faultProblem(r);
        if (problem) throw bad(problem);
      }
      if (target.faults.size + rules.length > LIMITS.activeFaults) {
        throw bad(
          `faults: at most ${LIMITS.activeFaults} rules can be active at once (${target.faults.size} are); DELETE /__emulator/faults clears them`,
        );
      }
      for (const r of rules) target.faults.add(r as FaultRule);
      return { added: rules.length };
    },
    "DELETE /__emulator/faults": () => {
      target.faults.clear();
      return "OK";
    },
    "POST /__emulator/reset": () => {
      target.reset();
      return "OK";
    },
    "GET /__emulator/snapshot": () => target.snapshot(),
    "GET /__emulator/requests": () => target.requests(),
    "GET /__emulator/rate-limits": () => target.rateLimits(),
    "GET /__emulator/scenarios": () => target.scenarios.running(),
    "POST /__emulator/scenarios": (body) => {
      if (!isObj(body)) throw bad('body: must be { "name": "...", "options": { ... } }');
      const options = body["options"] ?? {};
      if (!isObj(options)) throw bad("options: must be an object");
      target.scenarios.start(body["name"], options);
      return { running: target.scenarios.running() };
    },
    "DELETE /__emulator/scenarios": () => {
      target.scenarios.clear();
      return "OK";
    },
    "POST /__emulator/restore": (body) => {
      const problem = snapshotProblem(body);
      if (problem) throw bad(problem);
      target.restore(body as never);
      return "OK";
    },
    "POST /__emulator/logs": async (body) => {
      const entries = Array.isArray(body) ? body : isObj(body) ? body["entries"] : undefined;
      if (!Array.isArray(entries)) {
        throw bad("body: must be an array of log entries (or { entries: [...] })");
      }
      const problem = entriesProblem(entries);
      if (problem) throw bad(problem);
      await appendInSlices(target, entries as Record<string, unknown>[]);
      return { appended: entries.length, size: target.logs.size };
    },
    "POST /__emulator/logs/simulate": (body) => {
      const opts = body === undefined ? {} : body;
      const problem = simulateProblem(opts);
      if (problem) throw bad(problem);
      return target.logs.simulateMessage(opts as Record<string, unknown>);
    },
    "GET /__emulator/health": () => ({ ok: true, logs: target.logs.size }),
  };
  return async (method, path, body) => {
    const route = routes[`${method} ${path}`];
    if (!route) {
      const allowed = Object.keys(routes).filter((k) => k.endsWith(` ${path}`));
      if (allowed.length > 0) {
        return { status: 405, body: { error: `method: ${method} is not allowed on ${path}` } };
      }
      return { status: 404, body: { error: `path: no admin operation at ${method} ${path}` } };
    }
    try {
      return { status: 200, body: await route(body) };
    } catch (e) {
      if (e instanceof HttpError) return { status: e.status, body: { error: e.message } };
      if (e instanceof TypeError || e instanceof RangeError)
        return { status: 400, body: { error: e.message } };
      throw e;
    }
  };
}
