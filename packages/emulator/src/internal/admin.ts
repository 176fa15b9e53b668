// The admin API under /__emulator/: faults, reset, snapshot/restore and log appends over HTTP.
import { faultProblem, type FaultRule } from "./faults.js";
import { HttpError } from "./management-state.js";

/** What the admin API drives (the emulator's own methods). */
export interface AdminTarget {
  readonly faults: { add(rule: FaultRule): void; clear(): void };
  readonly logs: {
    append(entries: readonly Record<string, unknown>[]): unknown;
    simulateMessage(opts: Record<string, unknown>): unknown;
    readonly size: number;
  };
  reset(): void;
  snapshot(): unknown;
  restore(snapshot: never): void;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Builds the handler of `/__emulator/...` requests. */
export function createAdmin(
  target: AdminTarget,
): (method: string, path: string, body: unknown) => { status: number; body: unknown } {
  const routes: Record<string, (body: unknown) => unknown> = {
    "POST /__emulator/faults": (body) => {
      const rules = Array.isArray(body) ? body : [body];
      for (const r of rules) {
        const problem = faultProblem(r);
        if (problem) throw new HttpError(400, problem);
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
    "POST /__emulator/restore": (body) => {
      if (!isObj(body) || body["version"] !== 1) {
        throw new HttpError(
          400,
          "body: must be a snapshot from GET /__emulator/snapshot (version 1)",
        );
      }
      target.restore(body as never);
      return "OK";
    },
    "POST /__emulator/logs": (body) => {
      const entries = Array.isArray(body) ? body : isObj(body) ? body["entries"] : undefined;
      if (!Array.isArray(entries) || !entries.every(isObj)) {
        throw new HttpError(400, "body: must be an array of log entries (or { entries: [...] })");
      }
      target.logs.append(entries);
      return { appended: entries.length, size: target.logs.size };
    },
    "POST /__emulator/logs/simulate": (body) =>
      target.logs.simulateMessage(isObj(body) ? body : {}),
    "GET /__emulator/health": () => ({ ok: true, logs: target.logs.size }),
  };
  return (method, path, body) => {
    const route = routes[`${method} ${path}`];
    if (!route) {
      const allowed = Object.keys(routes).filter((k) => k.endsWith(` ${path}`));
      if (allowed.length > 0) {
        return { status: 405, body: { error: `method: ${method} is not allowed on ${path}` } };
      }
      return { status: 404, body: { error: `path: no admin operation at ${method} ${path}` } };
    }
    try {
      return { status: 200, body: route(body) };
    } catch (e) {
      if (e instanceof HttpError) return { status: e.status, body: { error: e.message } };
      if (e instanceof TypeError || e instanceof RangeError)
        return { status: 400, body: { error: e.message } };
      throw e;
    }
  };
}
