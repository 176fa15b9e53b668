// The checks of a snapshot given to `restore` (admin API and JavaScript): its size, nesting, log entries
// and the shape of every management record, so a bad snapshot is a 400 naming it and changes nothing.
import { entryProblem, isObj, LIMITS, nestingProblem } from "./limits.js";

type FieldType = "string" | "boolean" | "number" | "strings" | "members";
const RECORD_FIELDS: Record<string, Record<string, FieldType>> = {
  database: {
    database_id: "string",
    database_name: "string",
    region: "string",
    primary_region: "string",
    read_regions: "strings",
    tls: "boolean",
    password: "string",
    rest_token: "string",
    read_only_rest_token: "string",
    eviction: "boolean",
    auto_upgrade: "boolean",
    daily_backup_enabled: "boolean",
    user_email: "string",
  },
  backup: {
    backup_id: "string",
    name: "string",
    database_id: "string",
    customer_id: "string",
    creation_time: "number",
  },
  team: { team_id: "string", team_name: "string", copy_cc: "boolean", members: "members" },
  index: {
    id: "string",
    name: "string",
    token: "string",
    read_only_token: "string",
    type: "string",
  },
};
const ROLES = new Set(["owner", "admin", "dev", "finance"]);

const fieldOk = (type: FieldType, v: unknown): boolean => {
  switch (type) {
    case "strings":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
    case "members":
      return (
        Array.isArray(v) &&
        v.every(
          (m) =>
            Array.isArray(m) &&
            m.length === 2 &&
            typeof m[0] === "string" &&
            ROLES.has(m[1] as string),
        )
      );
    case "number":
      return Number.isFinite(v);
    default:
      return typeof v === type;
  }
};

/**
 * Checks one management record of a snapshot has every field the emulator reads, of its type (so a
 * restored record can never make a later call fail with a 500).
 */
function recordProblem(
  list: "databases" | "backups" | "teams" | "indexes",
  item: unknown,
  where: string,
): string | undefined {
  if (!isObj(item)) return `${where}: must be an object`;
  let record = item;
  let at = where;
  if (list === "databases" || list === "indexes") {
    if (typeof item["owner"] !== "string") return `${where}.owner: must be a string`;
    if (!isObj(item["record"])) return `${where}.record: must be an object`;
    record = item["record"];
    at = `${where}.record`;
  }
  const kind = { databases: "database", backups: "backup", teams: "team", indexes: "index" }[list];
  for (const [field, type] of Object.entries(RECORD_FIELDS[kind] ?? {})) {
    if (!Object.hasOwn(record, field) || !fieldOk(type, record[field]))
      return `${at}.${field}: must be ${type === "members" ? "a list of [e-mail, role] pairs" : type === "strings" ? "an array of strings" : `a ${type}`}`;
  }
  return undefined;
}

/** Checks a snapshot's structure (version, lists, appended entries) before it is restored. */
export function snapshotProblem(snap: unknown): string | undefined {
  if (!isObj(snap) || snap["version"] !== 1) {
    return "snapshot: must come from snapshot() or GET /__emulator/snapshot (version 1)";
  }
  const m = snap["management"];
  if (m !== undefined) {
    if (!isObj(m)) return "management: must be an object";
    if (nestingProblem(m, LIMITS.managementDepth, Infinity) === "deep") {
      return `management: must nest at most ${LIMITS.managementDepth} levels deep`;
    }
    for (const k of ["searchIndexes", "qstashUsers", "auditLogs"]) {
      if (m[k] !== undefined && !(Array.isArray(m[k]) && (m[k] as unknown[]).every(isObj))) {
        return `management.${k}: must be an array of objects`;
      }
    }
    for (const k of ["databases", "backups", "teams", "indexes"] as const) {
      if (m[k] === undefined) continue;
      if (!Array.isArray(m[k])) return `management.${k}: must be an array of objects`;
      const items = m[k] as unknown[];
      for (let i = 0; i < items.length; i++) {
        const p = recordProblem(k, items[i], `management.${k}[${i}]`);
        if (p) return p;
      }
    }
    const owned = (k: string, strings: readonly string[]): string | undefined => {
      const list = (m[k] as Record<string, unknown>[] | undefined) ?? [];
      for (let i = 0; i < list.length; i++) {
        const item = list[i] as Record<string, unknown>;
        const record = item["record"];
        if (typeof item["owner"] !== "string" || !isObj(record)) {
          return `management.${k}[${i}]: must be { owner: string, record: object }`;
        }
        for (const f of strings) {
          if (typeof record[f] !== "string")
            return `management.${k}[${i}].record.${f}: must be a string`;
        }
      }
      return undefined;
    };
    const problem =
      owned("searchIndexes", ["id"]) ?? owned("qstashUsers", ["id", "token", "read_only_token"]);
    if (problem) return problem;
    const audit = (m["auditLogs"] as Record<string, unknown>[] | undefined) ?? [];
    for (let i = 0; i < audit.length; i++) {
      const e = audit[i] as Record<string, unknown>;
      if (typeof e["customer_id"] !== "string" || !Number.isFinite(e["timestamp"])) {
        return `management.auditLogs[${i}]: must have a string customer_id and a numeric timestamp`;
      }
    }
  }
  const logs = snap["logs"];
  if (logs === undefined) return undefined;
  if (!isObj(logs)) return "logs: must be an object";
  const next = logs["nextSeq"];
  if (next !== undefined && !(Number.isSafeInteger(next) && (next as number) >= 0)) {
    return "logs.nextSeq: must be an integer >= 0";
  }
  const appended = logs["appended"];
  if (appended === undefined) return undefined;
  if (!Array.isArray(appended)) return "logs.appended: must be an array of log entries";
  // A snapshot may hold more entries than one append; each one has the limits of an appended entry.
  for (let i = 0; i < appended.length; i++) {
    const where = `logs.appended[${i}]`;
    const p = entryProblem(appended[i], where);
    if (p) return p;
    const seq = (appended[i] as Record<string, unknown>)["seq"];
    if (!(Number.isSafeInteger(seq) && (seq as number) >= 1))
      return `${where}.seq: must be an integer >= 1`;
  }
  return undefined;
}
