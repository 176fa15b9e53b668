// Fault injection: rules matched against each request before normal handling.
import { templateRegex } from "./router.js";

/** A fault to inject into matching requests. */
export interface FaultRule {
  /** Only requests with this HTTP method (case-insensitive). @default every method */
  method?: string;
  /**
   * Only requests to this path: an exact path (`/v2/logs`), a spec template (`/v2/redis/database/{id}`)
   * or a prefix ending in `*` (`/v2/redis/*`). The query string is ignored. @default every path
   */
  path?: string;
  /** Only requests routed to this spec operation (`listLogs`, `createDatabase`, ...). */
  operationId?: string;
  /** Answer with this status and a JSON `{ "error" }` body (or `body`). */
  status?: number;
  /** How many matching requests the rule applies to; `"always"` never runs out. @default 1 */
  times?: number | "always";
  /** Value of a `Retry-After` header, in seconds (number) or as given (string). */
  retryAfter?: number | string;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Response body: a string is sent as is, anything else as JSON. @default { error: "injected fault" } */
  body?: unknown;
  /** Wait this long (milliseconds) first; alone, the request is then handled normally. */
  delayMs?: number;
  /** Destroy the connection without answering. */
  resetConnection?: boolean;
  /** Answer `status` (default 200) with a truncated, unparseable JSON body. */
  malformedBody?: boolean;
}

interface ActiveRule {
  readonly rule: FaultRule;
  readonly matchPath: (path: string) => boolean;
  remaining: number;
}

function pathMatcher(path: string | undefined): (p: string) => boolean {
  if (path === undefined || path === "" || path === "*") return () => true;
  const clean = path.split("?")[0] ?? path;
  if (clean.endsWith("*")) {
    const prefix = clean.slice(0, -1);
    return (p) => p.startsWith(prefix);
  }
  if (clean.includes("{")) {
    const { regex } = templateRegex(clean);
    return (p) => regex.test(p);
  }
  return (p) => p === clean;
}

/** Checks a rule given over HTTP (or from JavaScript) and returns a readable problem, if any. */
export function faultProblem(rule: unknown): string | undefined {
  if (typeof rule !== "object" || rule === null || Array.isArray(rule))
    return "fault: must be an object";
  const r = rule as Record<string, unknown>;
  const known = new Set([
    "method",
    "path",
    "operationId",
    "status",
    "times",
    "retryAfter",
    "headers",
    "body",
    "delayMs",
    "resetConnection",
    "malformedBody",
  ]);
  for (const k of Object.keys(r)) if (!known.has(k)) return `${k}: is not a fault option`;
  const s = r["status"];
  if (s !== undefined && (typeof s !== "number" || !Number.isInteger(s) || s < 100 || s > 599)) {
    return "status: must be an integer from 100 to 599";
  }
  const t = r["times"];
  if (t !== undefined && t !== "always" && (typeof t !== "number" || !(t >= 1))) {
    return 'times: must be a number >= 1 or "always"';
  }
  const d = r["delayMs"];
  if (d !== undefined && (typeof d !== "number" || !(d >= 0)))
    return "delayMs: must be a number >= 0";
  for (const k of ["method", "path", "operationId"]) {
    if (r[k] !== undefined && typeof r[k] !== "string") return `${k}: must be a string`;
  }
  const h = r["headers"];
  if (h !== undefined && (typeof h !== "object" || h === null || Array.isArray(h))) {
    return "headers: must be an object of strings";
  }
  return undefined;
}

/** The list of active fault rules. */
export class Faults {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    const problem = faultProblem(rule);
    if (problem) throw new TypeError(problem);
    this.rules.push({
      rule: { ...rule },
      matchPath: pathMatcher(rule.path),
      remaining: rule.times === "always" ? Infinity : (rule.times ?? 1),
    });
  }

  clear(): void {
    this.rules = [];
  }

  get size(): number {
    return this.rules.length;
  }

  /** Takes the first rule matching this request (and counts it down). */
  take(method: string, path: string, operationId: string | undefined): FaultRule | undefined {
    for (let i = 0; i < this.rules.length; i++) {
      const r = this.rules[i] as ActiveRule;
      if (r.rule.method !== undefined && r.rule.method.toUpperCase() !== method) continue;
      if (r.rule.operationId !== undefined && r.rule.operationId !== operationId) continue;
      if (!r.matchPath(path)) continue;
      r.remaining--;
      if (r.remaining <= 0) this.rules.splice(i, 1);
      return r.rule;
    }
    return undefined;
  }
}
