// Generated requests over every operation of both specs: valid inputs built from the compiled rules
// (known values, bounds, required fields, ids the emulator handed out earlier) and invalid ones
// (junk ids, wrong types, broken JSON, missing or wrong credentials of both kinds, unknown paths,
// wrong methods). Seeded: the same seed gives the same requests.
import { prng } from "../../src/internal/prng.js";
import { operations, type SpecOperation } from "../../src/generated/operations.js";

/** One generated request. */
export interface GeneratedRequest {
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** What the generator learned from earlier answers: ids, cursors, QStash tokens. */
export interface Harvest {
  readonly ids: Map<string, Set<string>>;
  readonly cursors: Set<string>;
  readonly tokens: Set<string>;
}

export const newHarvest = (): Harvest => ({
  ids: new Map(),
  cursors: new Set(),
  tokens: new Set(),
});

const ID_FIELDS: Record<string, string> = {
  database_id: "database",
  backup_id: "backup",
  team_id: "team",
};

/** Notes the ids, cursors and tokens an answer holds, by the kind of resource they name. */
export function harvest(h: Harvest, operationId: string | undefined, body: unknown): void {
  const kind = operationId?.includes("Vector")
    ? "vector"
    : operationId?.includes("Search")
      ? "search"
      : operationId?.includes("QStash")
        ? "qstash"
        : undefined;
  const visit = (v: unknown, depth: number): void => {
    if (depth > 3 || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v.slice(0, 20)) visit(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === "string") {
        const named = ID_FIELDS[k] ?? (k === "id" ? kind : undefined);
        if (named) add(h.ids, named, x);
        if (k === "cursor") h.cursors.add(x);
        if (k === "token" && kind === "qstash") h.tokens.add(x);
      } else visit(x, depth + 1);
    }
  };
  visit(body, 0);
}

const add = (m: Map<string, Set<string>>, k: string, v: string): void => {
  const s = m.get(k) ?? new Set<string>();
  if (s.size < 50) s.add(v);
  m.set(k, s);
};

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
const chance = (rng: Rng, p: number): boolean => rng() < p;

interface Credentials {
  readonly logsToken: string;
  readonly accounts: readonly { email: string; apiKey: string }[];
}

const basic = (email: string, key: string): string =>
  `Basic ${Buffer.from(`${email}:${key}`).toString("base64")}`;

const JUNK_STRINGS = ["", "x", "🙂", "a".repeat(300), "../etc", "null", "0", "-1"];

/** A value for a schema: valid most of the time, else of the wrong type or outside the rules. */
function valueFor(rng: Rng, schema: unknown, name: string, h: Harvest, emails: string[]): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (chance(rng, 0.08)) return pick(rng, [null, 12, "x", true, [], {}, -5, 1.5, "mars-1"]);
  const values = (s["enum"] ?? s["known"]) as string[] | undefined;
  if (values) return pick(rng, values);
  switch (s["type"]) {
    case "boolean":
      return chance(rng, 0.5);
    case "integer": {
      const min = typeof s["minimum"] === "number" ? s["minimum"] : 0;
      const max = typeof s["maximum"] === "number" ? s["maximum"] : 1536;
      return pick(rng, [min, max, Math.floor(min + rng() * (max - min)), 20, 384]);
    }
    case "array":
      return Array.from({ length: Math.floor(rng() * 3) }, () =>
        valueFor(rng, s["items"], name, h, emails),
      );
    default: {
      if (name === "member_email" || name === "target_account") {
        const team = [...(h.ids.get("team") ?? [])];
        return pick(rng, [...emails, ...team, "nobody@example.com"]);
      }
      const kind =
        ID_FIELDS[name] ??
        (name === "qstash_id" ? "qstash" : name === "target_team_id" ? "team" : undefined);
      if (kind) return idFor(rng, kind, h);
      return pick(rng, ["alpha", "beta-2", "prod", "name with space", ...JUNK_STRINGS.slice(0, 2)]);
    }
  }
}

function idFor(rng: Rng, kind: string | undefined, h: Harvest): string {
  const pool = kind ? [...(h.ids.get(kind) ?? [])] : [...h.ids.values()].flatMap((s) => [...s]);
  if (pool.length === 0 || chance(rng, 0.12)) {
    return pick(rng, ["missing-id", "00000000-0000-4000-8000-000000000000", "%20", "x"]);
  }
  return pick(rng, pool);
}

function bodyFor(rng: Rng, op: SpecOperation, h: Harvest, emails: string[]): string | undefined {
  if (!op.body) return chance(rng, 0.05) ? '{"unexpected":true}' : undefined;
  const roll = rng();
  if (roll < 0.04) return "{not json";
  if (roll < 0.07) return "";
  if (roll < 0.1) return JSON.stringify(pick(rng, [[], 5, "text", null]));
  const schema = (op.body as unknown as { schema?: Record<string, unknown> }).schema ?? {};
  const props = (schema["properties"] ?? {}) as Record<string, unknown>;
  const required = new Set((schema["required"] ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props)) {
    const include = required.has(name) ? !chance(rng, 0.05) : chance(rng, 0.4);
    if (include) out[name] = valueFor(rng, prop, name, h, emails);
  }
  const anyRequired = schema["anyRequired"] as string[][] | undefined;
  if (anyRequired && !chance(rng, 0.05)) {
    const names = pick(rng, anyRequired);
    for (const n of names) out[n] ??= pick(rng, ["db-a", "db-b", "cache"]);
  }
  if (op.operationId === "createDatabase" && chance(rng, 0.7)) {
    // Mostly the current global form (a regional one needs a region without primary_region).
    out["region"] = "global";
    out["primary_region"] ??= "us-east-1";
    delete out["platform"];
    if (Array.isArray(out["read_regions"])) out["read_regions"] = ["eu-west-1"];
  }
  return JSON.stringify(out);
}

function queryFor(rng: Rng, op: SpecOperation, h: Harvest): string {
  const q = new URLSearchParams();
  for (const p of op.params ?? []) {
    if (p.in !== "query" || !chance(rng, op.api === "logs" ? 0.15 : 0.5)) continue;
    const schema = p.schema as Record<string, unknown>;
    let v: unknown;
    if (p.name === "cursor")
      v = chance(rng, 0.8) && h.cursors.size ? pick(rng, [...h.cursors]) : "bad";
    else if (p.name === "count") v = pick(rng, [1, 5, 10, 100, 1000, 1001, 0, -1, "x"]);
    else if (p.name === "fromDate" || p.name === "toDate")
      v = pick(rng, [1_700_000_000_000, 1_767_225_600_000, "yesterday", -1]);
    else if (p.name === "order") v = pick(rng, ["latestFirst", "earliestFirst", "sideways"]);
    else if (p.name === "period") v = pick(rng, ["1h", "3h", "1d", "7d", "30d", "2y"]);
    else if (p.name === "credentials") v = pick(rng, ["hide", "show"]);
    else v = valueFor(rng, schema["oneOf"] ? { type: "string" } : schema, p.name, h, []);
    q.append(p.name, typeof v === "string" ? v : JSON.stringify(v));
    if (chance(rng, 0.1)) q.append(p.name, "second");
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

function authFor(rng: Rng, op: SpecOperation, creds: Credentials, h: Harvest): string | undefined {
  const roll = rng();
  const [alice, bob] = creds.accounts as [
    { email: string; apiKey: string },
    { email: string; apiKey: string },
  ];
  const wantBearer = op.auth === "bearer" ? roll < 0.9 : roll < 0.06;
  if (wantBearer) {
    return pick(rng, [
      `Bearer ${creds.logsToken}`,
      `Bearer ${creds.logsToken}`,
      h.tokens.size ? `Bearer ${pick(rng, [...h.tokens])}` : `Bearer ${creds.logsToken}`,
      "Bearer wrong-token",
      "Bearer",
    ]);
  }
  return pick(rng, [
    basic(alice.email, alice.apiKey),
    basic(alice.email, alice.apiKey),
    basic(alice.email, alice.apiKey),
    basic(bob.email, bob.apiKey),
    basic(alice.email, "wrong"),
    basic(alice.email, ""),
    undefined,
  ]);
}

/** `count` requests from `seed`; each is built when asked, so it can use ids of earlier answers. */
export function* generateRequests(
  seed: number,
  count: number,
  creds: Credentials,
  h: Harvest,
): Generator<GeneratedRequest> {
  const rng = prng(seed);
  const emails = creds.accounts.map((a) => a.email);
  for (let i = 0; i < count; i++) {
    // Every operation in turn for the first rounds, then at random.
    const op =
      i < operations.length * 3
        ? (operations[i % operations.length] as SpecOperation)
        : pick(rng, operations);
    const headers: Record<string, string> = {};
    const auth = authFor(rng, op, creds, h);
    if (auth) headers["authorization"] = auth;
    let method = op.method;
    let path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(idFor(rng, name === "id" ? kindOf(op) : ID_FIELDS[name], h)),
    );
    const roll = rng();
    if (roll < 0.02) method = pick(rng, ["PUT", "PATCH", "DELETE", "POST", "GET"]);
    else if (roll < 0.04) path = pick(rng, ["/v2/nothing", "/v2/redis", "/", "/v2/logs/extra"]);
    const body = method === "GET" ? undefined : bodyFor(rng, op, h, emails);
    if (body !== undefined) headers["content-type"] = "application/json";
    yield {
      method,
      target: path + queryFor(rng, op, h),
      headers,
      ...(body === undefined ? {} : { body }),
    };
  }
}

function kindOf(op: SpecOperation): string | undefined {
  const id = op.operationId;
  if (id.includes("Vector")) return "vector";
  if (id.includes("Search")) return "search";
  if (id.includes("QStash")) return "qstash";
  if (id.includes("Team")) return "team";
  if (
    id.includes("Database") ||
    id.includes("Backup") ||
    id === "changePlan" ||
    id === "updateBudget"
  )
    return "database";
  return undefined;
}
