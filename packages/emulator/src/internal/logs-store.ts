// The in-memory log store: entries sorted by (time, sequence) in a main index, with secondary indexes
// per filterable field (the URL's host and path included), so a page is found by binary search and a
// short scan, never a full scan.

/** Fields of an entry serialized once and shared (by every entry of a message, or a pool of them). */
export class Fragment {
  private cached: string | undefined;
  constructor(readonly fields: Readonly<Record<string, unknown>>) {}
  /** The fields as JSON object members without braces (`"a":1,"b":2`), or "" when empty. */
  get json(): string {
    if (this.cached === undefined) {
      const s = JSON.stringify(this.fields);
      this.cached = s.length > 2 ? s.slice(1, -1) : "";
    }
    return this.cached;
  }
}

const EMPTY = new Fragment({});

/** One stored log entry. Immutable once stored, so snapshots can share them. */
export interface StoredEntry {
  readonly time: number;
  readonly seq: number;
  readonly messageId: string;
  readonly state: string;
  /** Fields of the message (url, topicName, header, body, ...). */
  readonly shared: Fragment;
  /** Fields of this attempt (error, responseStatus, ...). */
  readonly extra: Fragment;
  /** nextDeliveryTime in Unix ms, or -1 when absent. */
  readonly next: number;
}

/** An entry before it gets its sequence number. */
export type NewEntry = Omit<StoredEntry, "seq">;

const cmp = (a: StoredEntry, time: number, seq: number): number => a.time - time || a.seq - seq;

/** First position of a sorted array whose key is >= (time, seq). */
function lowerBound(items: readonly StoredEntry[], time: number, seq: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(items[mid] as StoredEntry, time, seq) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position of a sorted array whose key is > (time, seq). */
function upperBound(items: readonly StoredEntry[], time: number, seq: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(items[mid] as StoredEntry, time, seq) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts in order: a push when the entry is the newest (the usual case), a splice otherwise. */
function insert(items: StoredEntry[], e: StoredEntry): void {
  const last = items[items.length - 1];
  if (!last || cmp(last, e.time, e.seq) < 0) items.push(e);
  else items.splice(lowerBound(items, e.time, e.seq), 0, e);
}

/** States the filter value `IN_PROGRESS` stands for. */
const IN_PROGRESS = ["ACTIVE", "RETRY", "ERROR"];
/** String fields of an entry with an index of their own (value -> entries). */
const INDEXED_FIELDS = [
  "url",
  "topicName",
  "scheduleId",
  "queueName",
  "flowControlKey",
  "callerIp",
] as const;
type IndexedField = (typeof INDEXED_FIELDS)[number];

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

/** Normalizes a state for storage and filtering (upper case; `CANCELED` is `CANCELLED`). */
export function normalizeState(state: string): string {
  const s = state.toUpperCase();
  return s === "CANCELED" ? "CANCELLED" : s;
}

/** Serializes one entry to JSON, reusing the cached fragments. */
export function entryJson(e: StoredEntry): string {
  let s = `{"time":${e.time},"messageId":${JSON.stringify(e.messageId)},"state":${JSON.stringify(e.state)}`;
  const shared = e.shared.json;
  if (shared) s += "," + shared;
  const extra = e.extra.json;
  if (extra) s += "," + extra;
  if (e.next >= 0) s += `,"nextDeliveryTime":${e.next}`;
  return s + "}";
}

/** Turns a stored entry back into a plain object (for snapshots and `logs.entries()`). */
export function entryObject(e: StoredEntry): Record<string, unknown> {
  const o: Record<string, unknown> = { time: e.time, messageId: e.messageId, state: e.state };
  // Defined, not assigned: a field named `__proto__` stays a field (assigning it sets the prototype).
  for (const fields of [e.shared.fields, e.extra.fields])
    for (const k of Object.keys(fields))
      Object.defineProperty(o, k, {
        value: fields[k],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  if (e.next >= 0) o["nextDeliveryTime"] = e.next;
  return o;
}

/** Builds a stored-entry shape from a plain log entry object. */
export function fromObject(
  o: Record<string, unknown>,
  defaults: { time: number; messageId: string },
): NewEntry {
  const { time, messageId, state, ...rest } = o;
  const t =
    typeof time === "number"
      ? time
      : typeof time === "string" && time.trim() !== ""
        ? Number(time)
        : NaN;
  return {
    time: Number.isFinite(t) ? t : defaults.time,
    messageId: typeof messageId === "string" && messageId !== "" ? messageId : defaults.messageId,
    state: normalizeState(typeof state === "string" && state !== "" ? state : "CREATED"),
    shared: Object.keys(rest).length > 0 ? new Fragment(rest) : EMPTY,
    extra: EMPTY,
    next: -1,
  };
}

export { EMPTY as EMPTY_FRAGMENT };

/** The store itself. */
export class LogsStore {
  private main: StoredEntry[] = [];
  private byMessage = new Map<string, StoredEntry[]>();
  private byState = new Map<string, StoredEntry[]>();
  private byField = new Map<IndexedField, Map<string, StoredEntry[]>>();
  /** Entries by each of their labels (`label` and every value of `labels`). */
  private byLabel = new Map<string, StoredEntry[]>();
  /** Entries by their URL's host name and host:port, and by its path (the `host`/`path` filters). */
  private byHost = new Map<string, StoredEntry[]>();
  private byPath = new Map<string, StoredEntry[]>();
  private nextSeq = 1;

  constructor() {
    this.clear();
  }

  get size(): number {
    return this.main.length;
  }

  /** The next sequence number (kept in snapshots so cursors stay monotonic after a restore). */
  get sequence(): number {
    return this.nextSeq;
  }

  clear(): void {
    this.main = [];
    this.byMessage = new Map();
    this.byState = new Map();
    this.byField = new Map(INDEXED_FIELDS.map((f) => [f, new Map()]));
    this.byLabel = new Map();
    this.byHost = new Map();
    this.byPath = new Map();
  }

  /** Every entry in (time, sequence) order; the array is live, do not mutate it. */
  all(): readonly StoredEntry[] {
    return this.main;
  }

  private static add(map: Map<string, StoredEntry[]>, key: string, e: StoredEntry): void {
    const idx = map.get(key);
    if (idx) insert(idx, e);
    else map.set(key, [e]);
  }

  private index(e: StoredEntry): void {
    insert(this.main, e);
    LogsStore.add(this.byMessage, e.messageId, e);
    LogsStore.add(this.byState, e.state, e);
    for (const f of INDEXED_FIELDS) {
      const v = e.shared.fields[f];
      if (typeof v === "string")
        LogsStore.add(this.byField.get(f) as Map<string, StoredEntry[]>, v, e);
    }
    for (const label of labelsOf(e)) LogsStore.add(this.byLabel, label, e);
    const url = urlParts(e);
    if (url !== undefined) {
      LogsStore.add(this.byHost, url.hostname, e);
      if (url.host !== url.hostname) LogsStore.add(this.byHost, url.host, e);
      LogsStore.add(this.byPath, url.path, e);
    }
  }

  /** Adds entries, giving each the next sequence number. */
  append(entries: readonly NewEntry[]): StoredEntry[] {
    const stored = entries.map((e): StoredEntry => ({
      time: e.time,
      seq: this.nextSeq++,
      messageId: e.messageId,
      state: e.state,
      shared: e.shared,
      extra: e.extra,
      next: e.next,
    }));
    for (const e of stored) this.index(e);
    return stored;
  }

  /** Replaces the content with already-numbered entries (sorted or not). */
  load(entries: readonly StoredEntry[], nextSeq: number): void {
    this.clear();
    const sorted = [...entries].sort((a, b) => a.time - b.time || a.seq - b.seq);
    // Sorted input makes every insert a push.
    for (const e of sorted) this.index(e);
    this.nextSeq = Math.max(nextSeq, (sorted.reduce((m, e) => Math.max(m, e.seq), 0) || 0) + 1);
  }

  /** Entries of one message in time order. */
  message(messageId: string): readonly StoredEntry[] {
    return this.byMessage.get(messageId) ?? [];
  }

  /**
   * The sorted lists whose union holds every entry a filter can match, for each filter with an index;
   * the smallest set is scanned. `[]` means no entry can match.
   */
  private sources(q: LogQuery, state: string | undefined): (readonly StoredEntry[])[] {
    const options: (readonly StoredEntry[])[][] = [];
    const lookup = (
      map: Map<string, StoredEntry[]> | undefined,
      values: readonly string[],
    ): void => {
      options.push(
        values.map((v) => map?.get(v)).filter((l): l is StoredEntry[] => l !== undefined),
      );
    };
    if (q.messageId !== undefined) lookup(this.byMessage, [q.messageId]);
    if (q.messageIds !== undefined) lookup(this.byMessage, q.messageIds);
    if (state !== undefined) lookup(this.byState, state === "IN_PROGRESS" ? IN_PROGRESS : [state]);
    for (const f of INDEXED_FIELDS) {
      const v = q[f];
      if (v !== undefined) lookup(this.byField.get(f), typeof v === "string" ? [v] : v);
    }
    if (q.label !== undefined) lookup(this.byLabel, q.label);
    if (q.host !== undefined) lookup(this.byHost, [q.host.toLowerCase()]);
    if (q.path !== undefined) lookup(this.byPath, [q.path]);
    let best: (readonly StoredEntry[])[] = [this.main];
    let size = this.main.length;
    for (const lists of options) {
      const n = lists.reduce((sum, l) => sum + l.length, 0);
      if (n < size || lists.length === 0) {
        best = lists;
        size = n;
      }
      if (lists.length === 0) break;
    }
    return best;
  }

  /** One page of a listing. */
  page(q: LogQuery): { entries: StoredEntry[]; cursor: string | undefined } {
    const state = q.state === undefined ? undefined : normalizeState(q.state);
    const sources = this.sources(q, state);
    if (sources.length === 0) return { entries: [], cursor: undefined };
    const match = matcher(q, state);

    // Range [lo, hi) of each source inside fromDate/toDate (inclusive) and after the cursor.
    const ranges = sources.map((items) => {
      let lo = q.fromDate === undefined ? 0 : lowerBound(items, q.fromDate, -Infinity);
      let hi = q.toDate === undefined ? items.length : upperBound(items, q.toDate, Infinity);
      if (q.cursor) {
        if (q.order === "earliestFirst")
          lo = Math.max(lo, upperBound(items, q.cursor.time, q.cursor.seq));
        else hi = Math.min(hi, lowerBound(items, q.cursor.time, q.cursor.seq));
      }
      return { items, lo, hi };
    });
    const forward = q.order === "earliestFirst";
    // The next entry in listing order across the sources (a k-way merge); undefined when done.
    const next = (): StoredEntry | undefined => {
      let pick: (typeof ranges)[number] | undefined;
      let best: StoredEntry | undefined;
      for (const r of ranges) {
        if (r.lo >= r.hi) continue;
        const e = (forward ? r.items[r.lo] : r.items[r.hi - 1]) as StoredEntry;
        if (
          !best ||
          (forward ? cmp(e, best.time, best.seq) < 0 : cmp(e, best.time, best.seq) > 0)
        ) {
          best = e;
          pick = r;
        }
      }
      if (pick) {
        if (forward) pick.lo++;
        else pick.hi--;
      }
      return best;
    };
    const out: StoredEntry[] = [];
    let more = false;
    let previous: StoredEntry | undefined;
    for (let e = next(); e !== undefined; e = next()) {
      // An entry with two matching labels sits in two sources: list it once.
      if (e === previous) continue;
      previous = e;
      if (match && !match(e)) continue;
      if (out.length === q.count) {
        more = true;
        break;
      }
      out.push(e);
    }
    const last = out[out.length - 1];
    return { entries: out, cursor: more && last ? `${last.time}-${last.seq}` : undefined };
  }
}

/** Every label of an entry: its `label` and the values of its `labels`. */
function labelsOf(e: StoredEntry): Set<string> {
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
function urlParts(e: StoredEntry): UrlParts | undefined {
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
function matcher(
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
