// The in-memory log store: entries sorted by (time, sequence) in a main index, with secondary indexes
// per filterable field, so a page is found by binary search and a short scan, never a full scan.

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
const IN_PROGRESS = new Set(["ACTIVE", "RETRY", "ERROR"]);
const INDEXED_FIELDS = ["url", "topicName", "scheduleId", "queueName"] as const;
type IndexedField = (typeof INDEXED_FIELDS)[number];

/** Filters of a listing, as the seed defines them (each one narrows). */
export interface LogQuery {
  readonly cursor?: { time: number; seq: number } | undefined;
  readonly messageId?: string | undefined;
  readonly state?: string | undefined;
  readonly url?: string | undefined;
  readonly topicName?: string | undefined;
  readonly scheduleId?: string | undefined;
  readonly queueName?: string | undefined;
  readonly fromDate?: number | undefined;
  readonly toDate?: number | undefined;
  readonly count: number;
  readonly order: "earliestFirst" | "latestFirst";
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
  Object.assign(o, e.shared.fields, e.extra.fields);
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

  /** One page of a listing. */
  page(q: LogQuery): { entries: StoredEntry[]; cursor: string | undefined } {
    const state = q.state === undefined ? undefined : normalizeState(q.state);
    // Pick the smallest index that one of the filters allows.
    let items: readonly StoredEntry[] = this.main;
    const candidates: StoredEntry[][] = [];
    let empty = false;
    const pick = (found: StoredEntry[] | undefined): void => {
      if (!found) empty = true;
      else candidates.push(found);
    };
    if (q.messageId !== undefined) pick(this.byMessage.get(q.messageId));
    if (state !== undefined && state !== "IN_PROGRESS") pick(this.byState.get(state));
    for (const f of INDEXED_FIELDS) {
      const v = q[f];
      if (v !== undefined) pick(this.byField.get(f)?.get(v));
    }
    if (empty) return { entries: [], cursor: undefined };
    for (const c of candidates) if (c.length < items.length) items = c;

    const hasFilter =
      q.messageId !== undefined ||
      state !== undefined ||
      INDEXED_FIELDS.some((f) => q[f] !== undefined);
    const match = hasFilter
      ? (e: StoredEntry): boolean =>
          (q.messageId === undefined || e.messageId === q.messageId) &&
          (state === undefined ||
            (state === "IN_PROGRESS" ? IN_PROGRESS.has(e.state) : e.state === state)) &&
          (q.url === undefined || e.shared.fields["url"] === q.url) &&
          (q.topicName === undefined || e.shared.fields["topicName"] === q.topicName) &&
          (q.scheduleId === undefined || e.shared.fields["scheduleId"] === q.scheduleId) &&
          (q.queueName === undefined || e.shared.fields["queueName"] === q.queueName)
      : undefined;

    // Range [lo, hi) of the chosen index inside fromDate/toDate (inclusive) and after the cursor.
    let lo = q.fromDate === undefined ? 0 : lowerBound(items, q.fromDate, -Infinity);
    let hi = q.toDate === undefined ? items.length : upperBound(items, q.toDate, Infinity);
    if (q.cursor) {
      if (q.order === "earliestFirst")
        lo = Math.max(lo, upperBound(items, q.cursor.time, q.cursor.seq));
      else hi = Math.min(hi, lowerBound(items, q.cursor.time, q.cursor.seq));
    }
    const out: StoredEntry[] = [];
    let more = false;
    if (q.order === "earliestFirst") {
      for (let i = lo; i < hi; i++) {
        const e = items[i] as StoredEntry;
        if (match && !match(e)) continue;
        if (out.length === q.count) {
          more = true;
          break;
        }
        out.push(e);
      }
    } else {
      for (let i = hi - 1; i >= lo; i--) {
        const e = items[i] as StoredEntry;
        if (match && !match(e)) continue;
        if (out.length === q.count) {
          more = true;
          break;
        }
        out.push(e);
      }
    }
    const last = out[out.length - 1];
    return { entries: out, cursor: more && last ? `${last.time}-${last.seq}` : undefined };
  }
}

/** Parses a `<timestamp_ms>-<sequence>` cursor, or returns undefined when it is not one. */
export function parseCursor(raw: string): { time: number; seq: number } | undefined {
  const m = /^(-?\d+(?:\.\d+)?)-(\d+)$/.exec(raw);
  if (!m) return undefined;
  const time = Number(m[1]);
  const seq = Number(m[2]);
  return Number.isFinite(time) && Number.isFinite(seq) ? { time, seq } : undefined;
}
