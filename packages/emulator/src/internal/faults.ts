// Fault injection: rules matched against each request before normal handling.
import { LIMITS, shapeProblem } from "./limits.js";
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
  /** `Retry-After` in seconds (a fraction is sent as `retry-after-ms`, with `Retry-After` rounded up), or a header value as given (string). */
  retryAfter?: number | string;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Response body: a string is sent as is, anything else as JSON. @default { error, code, message } naming the injected fault */
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
  readonly matchPath: (path: string, template: string | undefined) => boolean;
  remaining: number;
}

/** A template with its parameter names dropped (`/v2/search/{id}` → `/v2/search/{}`). */
const shape = (template: string): string => template.replace(/\{[^}]*\}/g, "{}");

function pathMatcher(
  path: string | undefined,
): (p: string, template: string | undefined) => boolean {
  if (path === undefined || path === "" || path === "*") return () => true;
  const clean = path.split("?")[0] ?? path;
  if (clean.endsWith("*")) {
    const prefix = clean.slice(0, -1);
    return (p) => p.startsWith(prefix);
  }
  if (clean.includes("{")) {
    // A request routed to a spec operation matches by its template, so `/v2/search/{id}` does not
    // catch `/v2/search/stats` (another operation); an unrouted path matches by the pattern.
    const { regex } = templateRegex(clean);
    const want = shape(clean);
    return (p, template) => (template === undefined ? regex.test(p) : shape(template) === want);
  }
  return (p) => p === clean;
}

/** Response headers a rule may not set: the emulator frames the answer itself. */
const FRAMING_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "trailer",
]);
const KNOWN_OPTIONS = new Set([
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
/** A header name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value: tab, visible ASCII, space and obs-text (what `node:http` accepts). */
const isHeaderValue = (v: string): boolean => /^[\t\x20-\x7e\x80-\xff]*$/.test(v);

function pathProblem(path: string): string | undefined {
  if (path.length > LIMITS.faultPathLength) {
    return `path: must be at most ${LIMITS.faultPathLength} characters`;
  }
  // A `{param}` must be a whole segment, as in the specs (adjacent params would make a slow regex).
  const clean = path.split("?")[0] ?? path;
  if (clean.includes("{") || clean.includes("}")) {
    for (const segment of clean.split("/")) {
      if ((segment.includes("{") || segment.includes("}")) && !/^\{[^{}/]+\}$/.test(segment)) {
        return "path: a {param} must be a whole path segment, as in /v2/redis/database/{id}";
      }
    }
  }
  return undefined;
}

/** Checks a rule given over HTTP (or from JavaScript) and returns a readable problem, if any. */
export function faultProblem(rule: unknown): string | undefined {
  if (typeof rule !== "object" || rule === null || Array.isArray(rule))
    return "fault: must be an object";
  const r = rule as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!KNOWN_OPTIONS.has(k)) return `${k}: is not a fault option`;
  const s = r["status"];
  if (s !== undefined && (typeof s !== "number" || !Number.isInteger(s) || s < 200 || s > 599)) {
    return "status: must be an integer from 200 to 599";
  }
  const t = r["times"];
  if (
    t !== undefined &&
    t !== "always" &&
    !(typeof t === "number" && Number.isSafeInteger(t) && t >= 1)
  ) {
    return 'times: must be an integer >= 1 or "always"';
  }
  const d = r["delayMs"];
  if (d !== undefined && !(typeof d === "number" && d >= 0 && d <= LIMITS.faultDelayMs)) {
    return `delayMs: must be a number from 0 to ${LIMITS.faultDelayMs}`;
  }
  for (const k of ["method", "path", "operationId"]) {
    if (r[k] !== undefined && typeof r[k] !== "string") return `${k}: must be a string`;
  }
  if (typeof r["method"] === "string" && !/^[A-Za-z]{1,16}$/.test(r["method"])) {
    return "method: must be an HTTP method such as GET";
  }
  if (typeof r["path"] === "string") {
    const p = pathProblem(r["path"]);
    if (p) return p;
  }
  for (const k of ["resetConnection", "malformedBody"]) {
    if (r[k] !== undefined && typeof r[k] !== "boolean") return `${k}: must be true or false`;
  }
  const ra = r["retryAfter"];
  if (
    ra !== undefined &&
    !(typeof ra === "number" && Number.isFinite(ra) && ra >= 0) &&
    !(typeof ra === "string" && ra.length <= 256 && isHeaderValue(ra))
  ) {
    return "retryAfter: must be a number of seconds >= 0 or a header value";
  }
  const h = r["headers"];
  if (h !== undefined) {
    if (typeof h !== "object" || h === null || Array.isArray(h)) {
      return "headers: must be an object of strings";
    }
    const entries = Object.entries(h);
    if (entries.length > LIMITS.faultHeaders) {
      return `headers: must hold at most ${LIMITS.faultHeaders} headers`;
    }
    for (const [name, value] of entries) {
      if (!HEADER_NAME.test(name)) {
        return `headers: ${JSON.stringify(name.slice(0, 64))} is not a valid header name`;
      }
      if (FRAMING_HEADERS.has(name.toLowerCase())) {
        return `headers.${name}: is set by the emulator`;
      }
      if (typeof value !== "string" || value.length > 8192 || !isHeaderValue(value)) {
        return `headers.${name}: must be a valid header value (a string of at most 8192 characters)`;
      }
    }
  }
  if (r["body"] !== undefined) {
    const p = shapeProblem(r["body"], "body", LIMITS.faultBodyDepth, LIMITS.faultBodyBytes);
    if (p) return p;
  }
  return undefined;
}

/** The list of active fault rules. */
export class Faults {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    const problem = faultProblem(rule);
    if (problem) throw new TypeError(problem);
    if (this.rules.length >= LIMITS.activeFaults) {
      throw new RangeError(`faults: at most ${LIMITS.activeFaults} rules can be active at once`);
    }
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
  take(
    method: string,
    path: string,
    operationId: string | undefined,
    template?: string,
  ): FaultRule | undefined {
    for (let i = 0; i < this.rules.length; i++) {
      const r = this.rules[i] as ActiveRule;
      if (r.rule.method !== undefined && r.rule.method.toUpperCase() !== method) continue;
      if (r.rule.operationId !== undefined && r.rule.operationId !== operationId) continue;
      if (!r.matchPath(path, template)) continue;
      r.remaining--;
      if (r.remaining <= 0) this.rules.splice(i, 1);
      return r.rule;
    }
    return undefined;
  }
}
