// The in-memory log store: entries sorted by (time, sequence) in a main index, with secondary indexes
// per filterable field (the URL's host and path included), so a page is found by binary search and a
// short scan, never a full scan.

import { normalizeState, type NewEntry, type StoredEntry } from "./log-entry.js";
import {
  IN_PROGRESS,
  INDEXED_FIELDS,
  labelsOf,
  matcher,
  urlParts,
  type IndexedField,
  type LogQuery,
} from "./log-query.js";

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
