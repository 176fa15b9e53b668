// Named scenarios: the faults consumers test first, each answered with the service's own headers and
// bodies, started by name (`emulator.scenario(name, options)`), composed (the first active scenario
// that matches a request takes it, after the fault rules), and ended by their own count or duration,
// by `end()`, or by `reset()`.
import type { FaultRule } from "./faults.js";
import { errorBody } from "./http-error.js";

/** The scenarios `emulator.scenario()` knows. */
export type ScenarioName =
  | "burst-limit-exhausted"
  | "daily-quota-exhausted"
  | "server-errors"
  | "slow-body"
  | "truncated-body"
  | "connection-reset"
  | "expired-cursor"
  | "database-deleted"
  | "logs-field";

/** Options of a scenario; each scenario reads the ones its README row names. */
export interface ScenarioOptions {
  /**
   * Requests the scenario applies to before it ends; `"always"` until `end()` or `reset()`.
   * @default 1 (3 for `server-errors`; `"always"` for `logs-field`)
   */
  times?: number | "always";
  /** Ends this long after it starts, milliseconds of the emulator's clock. @default no limit */
  durationMs?: number;
  /** Only requests routed to this operation. @default the scenario's own (the logs listings for the rate limits, cursors and `logs-field`; every operation otherwise) */
  operationId?: string;
  /** `server-errors`: the status, 500 to 599. @default 503 */
  status?: number;
  /** `server-errors`: `Retry-After` in seconds (a fraction also as `retry-after-ms`). @default none */
  retryAfter?: number;
  /** `slow-body`: the wait before each of the body's 4 parts, milliseconds. @default 250 */
  delayMs?: number;
  /** `database-deleted`: the database deleted (as by another member of its team) when it starts. */
  databaseId?: string;
}

/** A running scenario. */
export interface ScenarioHandle {
  readonly name: ScenarioName;
  /** False once it ended (count, duration, `end()` or `reset()`). */
  readonly active: boolean;
  /** Ends it now. */
  end(): void;
}

/** What a scenario does to the request it takes. */
export type ScenarioEffect =
  | { readonly kind: "answer"; readonly rule: FaultRule; readonly rateLimited?: boolean }
  | { readonly kind: "body"; readonly mode: "slow" | "truncated"; readonly delayMs: number }
  | { readonly kind: "logs-field" };

/** The request a scenario is matched against. */
export interface ScenarioRequest {
  readonly operationId: string | undefined;
  readonly search: URLSearchParams;
}

interface Active {
  readonly name: ScenarioName;
  readonly matches: (r: ScenarioRequest) => boolean;
  readonly effect: (nowMs: number) => ScenarioEffect;
  remaining: number;
  readonly endsAt: number;
  ended: boolean;
}

const LISTINGS = new Set(["listLogs", "listEvents"]);
const DAY_S = 86_400;

const NAMES: readonly ScenarioName[] = [
  "burst-limit-exhausted",
  "daily-quota-exhausted",
  "server-errors",
  "slow-body",
  "truncated-body",
  "connection-reset",
  "expired-cursor",
  "database-deleted",
  "logs-field",
];

/** Checks a scenario's name and options; throws a TypeError naming what is wrong. */
function check(name: unknown, o: ScenarioOptions): asserts name is ScenarioName {
  if (typeof name !== "string" || !NAMES.includes(name as ScenarioName)) {
    throw new TypeError(`scenario: unknown name ${JSON.stringify(name)}; use ${NAMES.join(", ")}`);
  }
  for (const k of ["durationMs", "status", "retryAfter", "delayMs"] as const) {
    if (o[k] !== undefined && typeof o[k] !== "number")
      throw new TypeError(`${k}: must be a number`);
  }
  const t = o.times;
  if (t !== undefined && t !== "always" && !(Number.isSafeInteger(t) && t >= 1)) {
    throw new TypeError('times: must be an integer >= 1 or "always"');
  }
  if (o.durationMs !== undefined && !(o.durationMs >= 0 && o.durationMs <= 86_400_000)) {
    throw new TypeError("durationMs: must be a number from 0 to 86400000");
  }
  if (
    o.status !== undefined &&
    !(Number.isInteger(o.status) && o.status >= 500 && o.status <= 599)
  ) {
    throw new TypeError("status: must be an integer from 500 to 599");
  }
  if (o.retryAfter !== undefined && !(o.retryAfter >= 0 && o.retryAfter <= 86_400)) {
    throw new TypeError("retryAfter: must be a number of seconds from 0 to 86400");
  }
  if (o.delayMs !== undefined && !(o.delayMs >= 0 && o.delayMs <= 60_000)) {
    throw new TypeError("delayMs: must be a number from 0 to 60000");
  }
  if (name === "database-deleted" && (typeof o.databaseId !== "string" || o.databaseId === "")) {
    throw new TypeError("databaseId: the database-deleted scenario needs the id of a database");
  }
}

/** The 429 of a used-up budget, with the headers the service sends for it. */
function refusal(scope: "burst" | "daily", nowMs: number, limit: number): ScenarioEffect {
  const s = Math.floor(nowMs / 1000);
  const headers =
    scope === "burst"
      ? {
          "burst-ratelimit-limit": String(limit),
          "burst-ratelimit-remaining": "0",
          "burst-ratelimit-reset": String(s + 1),
        }
      : {
          "ratelimit-limit": String(limit),
          "ratelimit-remaining": "0",
          "ratelimit-reset": String((Math.floor(s / DAY_S) + 1) * DAY_S),
        };
  const error =
    scope === "burst"
      ? `rate limit: burst limit of ${limit} requests per second reached`
      : `rate limit: daily quota of ${limit} requests used up`;
  return {
    kind: "answer",
    rule: { status: 429, headers, body: errorBody(429, error) },
    rateLimited: true,
  };
}

/** The scenarios running in one emulator. */
export class Scenarios {
  private list: Active[] = [];

  constructor(
    private readonly now: () => number,
    private readonly limits: { burst: number; daily: number },
    private readonly deleteDatabase: (id: string) => void,
  ) {}

  /** Starts a scenario (see {@link ScenarioName}); throws a TypeError for an unknown name or option. */
  start(name: ScenarioName, options: ScenarioOptions = {}): ScenarioHandle {
    const o = { ...options };
    check(name, o);
    const only = (ops: ReadonlySet<string> | undefined) => (r: ScenarioRequest) =>
      o.operationId !== undefined
        ? r.operationId === o.operationId
        : ops === undefined || (r.operationId !== undefined && ops.has(r.operationId));
    let matches = only(undefined);
    let effect: (nowMs: number) => ScenarioEffect;
    let times: number | "always" = o.times ?? 1;
    switch (name) {
      case "burst-limit-exhausted":
        matches = only(LISTINGS);
        effect = (now) => refusal("burst", now, this.limits.burst);
        break;
      case "daily-quota-exhausted":
        matches = only(LISTINGS);
        effect = (now) => refusal("daily", now, this.limits.daily);
        break;
      case "server-errors": {
        times = o.times ?? 3;
        const status = o.status ?? 503;
        const rule: FaultRule = {
          status,
          body: errorBody(status, `service unavailable (scenario server-errors, ${status})`),
          ...(o.retryAfter === undefined ? {} : { retryAfter: o.retryAfter }),
        };
        effect = () => ({ kind: "answer", rule });
        break;
      }
      case "slow-body":
        effect = () => ({ kind: "body", mode: "slow", delayMs: o.delayMs ?? 250 });
        break;
      case "truncated-body":
        effect = () => ({ kind: "body", mode: "truncated", delayMs: 0 });
        break;
      case "connection-reset":
        effect = () => ({ kind: "answer", rule: { resetConnection: true } });
        break;
      case "expired-cursor": {
        const listings = only(LISTINGS);
        matches = (r) => listings(r) && (r.search.get("cursor") ?? "") !== "";
        const rule: FaultRule = {
          status: 400,
          body: errorBody(
            400,
            "cursor: expired or not issued to this token; list again without a cursor",
          ),
        };
        effect = () => ({ kind: "answer", rule });
        break;
      }
      case "logs-field":
        times = o.times ?? "always";
        matches = only(LISTINGS);
        effect = () => ({ kind: "logs-field" });
        break;
      case "database-deleted":
        // The deletion is the whole scenario: it happens now, and the next calls meet a 404.
        this.deleteDatabase(o.databaseId as string);
        return { name, active: false, end: () => {} };
    }
    const active: Active = {
      name,
      matches,
      effect,
      remaining: times === "always" ? Infinity : times,
      endsAt: o.durationMs === undefined ? Infinity : this.now() + o.durationMs,
      ended: false,
    };
    this.list.push(active);
    const end = (): void => {
      active.ended = true;
      this.list = this.list.filter((a) => a !== active);
    };
    return {
      name,
      get active() {
        return !active.ended;
      },
      end,
    };
  }

  /** Takes the first running scenario that matches the request (and counts it down). */
  take(r: ScenarioRequest): ScenarioEffect | undefined {
    if (this.list.length === 0) return undefined;
    const now = this.now();
    for (const a of [...this.list]) {
      if (now >= a.endsAt) {
        a.ended = true;
        this.list = this.list.filter((x) => x !== a);
        continue;
      }
      if (!a.matches(r)) continue;
      if (--a.remaining <= 0) {
        a.ended = true;
        this.list = this.list.filter((x) => x !== a);
      }
      return a.effect(now);
    }
    return undefined;
  }

  /** Names of the running scenarios, oldest first. */
  get running(): ScenarioName[] {
    const now = this.now();
    return this.list.filter((a) => now < a.endsAt).map((a) => a.name);
  }

  /** Ends every scenario. */
  clear(): void {
    for (const a of this.list) a.ended = true;
    this.list = [];
  }
}
