// What a log listing asks for (`LogQuery`, built from `GET /v2/logs`'s query) and the predicate of its
// filters; the store's secondary indexes are keyed by the same fields.
import { type StoredEntry } from "./log-entry.js";

/** States the filter value `IN_PROGRESS` stands for. */
export const IN_PROGRESS = ["ACTIVE", "RETRY", "ERROR"];
/** String fields of an entry with an index of their own (value -> entries). */
export const INDEXED_FIELDS = [
  "url",
  "topicName",
  "scheduleId",
  "queueName",
  "flowControlKey",
  "callerIp",
] as const;
export type IndexedField = (typeof INDEXED_FIELDS)[number];

/**
 * Filters of a listing. Each one narrows (filters are ANDed); the values of a repeated filter are
 * ORed. `label` matches an entry's `label` or any of its `labels`; `host` and `path` match the host
 * name (or host:port) and the path of its `url`.
 */
export interface LogQuery {
  readonly cursor?: { time: number; seq: number } | undefined;
  readonly messageId?: string | undefined;
  readonly messageIds?: readonly string[] | undefined;
  readonly state?: string | undefined;
  readonly url?: readonly string[] | undefined;
  readonly topicName?: readonly string[] | undefined;
  readonly scheduleId?: readonly string[] | undefined;
  readonly queueName?: readonly string[] | undefined;
  readonly label?: readonly string[] | undefined;
  readonly flowControlKey?: string | undefined;
  readonly callerIp?: string | undefined;
  readonly host?: string | undefined;
  readonly path?: string | undefined;
  readonly fromDate?: number | undefined;
  readonly toDate?: number | undefined;
  readonly count: number;
  readonly order: "earliestFirst" | "latestFirst";
}

/** Builds a LogQuery from the validated query parameters of `GET /v2/logs` (repeated keys as arrays). */
export function logQuery(
  query: Readonly<Record<string, unknown>>,
  cursor: { time: number; seq: number } | undefined,
): LogQuery {
  const one = (k: string): string | undefined =>
    typeof query[k] === "string" ? (query[k] as string) : undefined;
  const many = (k: string): string[] | undefined => {
    const v = query[k];
    if (typeof v === "string") return [v];
    return Array.isArray(v)
      ? [...new Set(v.filter((x): x is string => typeof x === "string"))]
      : undefined;
  };
  const num = (k: string): number | undefined =>
    typeof query[k] === "number" ? (query[k] as number) : undefined;
  return {
    cursor,
    messageId: one("messageId"),
    messageIds: many("messageIds"),
    state: one("state"),
    url: many("url"),
    topicName: many("topicName"),
    scheduleId: many("scheduleId"),
    queueName: many("queueName"),
    label: many("label"),
    flowControlKey: one("flowControlKey"),
    callerIp: one("callerIp"),
    host: one("host"),
    path: one("path"),
    fromDate: num("fromDate"),
    toDate: num("toDate"),
    count: num("count") ?? 1000,
    order: query["order"] === "earliestFirst" ? "earliestFirst" : "latestFirst",
  };
}

/** Every label of an entry: its `label` and the values of its `labels`. */
export function labelsOf(e: StoredEntry): Set<string> {
  const out = new Set<string>();
  const { label, labels } = e.shared.fields;
  if (typeof label === "string") out.add(label);
  if (Array.isArray(labels)) for (const l of labels) if (typeof l === "string") out.add(l);
  return out;
}

type UrlParts = { hostname: string; host: string; path: string };
/** Parsed URLs by their text (entries share few URLs); cleared when it grows past 10,000. */
const parsedUrls = new Map<string, UrlParts | null>();

/** Host (with and without port) and path of an entry's URL, or undefined when it has none. */
export function urlParts(e: StoredEntry): UrlParts | undefined {
  const url = e.shared.fields["url"];
  if (typeof url !== "string") return undefined;
  let parts = parsedUrls.get(url);
  if (parts === undefined) {
    try {
      const u = new URL(url);
      parts = { hostname: u.hostname, host: u.host, path: u.pathname };
    } catch {
      parts = null;
    }
    if (parsedUrls.size >= 10_000) parsedUrls.clear();
    parsedUrls.set(url, parts);
  }
  return parts ?? undefined;
}

/** The predicate of every filter of the query, or undefined when there is none. */
export function matcher(
  q: LogQuery,
  state: string | undefined,
): ((e: StoredEntry) => boolean) | undefined {
  const tests: ((e: StoredEntry) => boolean)[] = [];
  const field = (e: StoredEntry, k: string): unknown => e.shared.fields[k];
  if (q.messageId !== undefined) tests.push((e) => e.messageId === q.messageId);
  if (q.messageIds !== undefined) {
    const ids = new Set(q.messageIds);
    tests.push((e) => ids.has(e.messageId));
  }
  if (state !== undefined) {
    tests.push(
      state === "IN_PROGRESS" ? (e) => IN_PROGRESS.includes(e.state) : (e) => e.state === state,
    );
  }
  for (const f of INDEXED_FIELDS) {
    const v = q[f];
    if (v === undefined) continue;
    const values = new Set(typeof v === "string" ? [v] : v);
    tests.push((e) => values.has(field(e, f) as string));
  }
  if (q.label !== undefined) {
    const wanted = q.label;
    tests.push((e) => {
      const have = labelsOf(e);
      return wanted.some((l) => have.has(l));
    });
  }
  if (q.host !== undefined) {
    const host = q.host.toLowerCase();
    tests.push((e) => {
      const p = urlParts(e);
      return p !== undefined && (p.hostname === host || p.host === host);
    });
  }
  if (q.path !== undefined) tests.push((e) => urlParts(e)?.path === q.path);
  if (tests.length === 0) return undefined;
  return (e) => tests.every((t) => t(e));
}

/** Parses a `<timestamp_ms>-<sequence>` cursor, or returns undefined when it is not one. */
export function parseCursor(raw: string): { time: number; seq: number } | undefined {
  const m = /^(-?\d+(?:\.\d+)?)-(\d+)$/.exec(raw);
  if (!m) return undefined;
  const time = Number(m[1]);
  const seq = Number(m[2]);
  return Number.isFinite(time) && Number.isFinite(seq) ? { time, seq } : undefined;
}
