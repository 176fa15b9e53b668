// One log entry as stored: its fields serialized once and shared (`Fragment`), and its conversions to
// JSON text, to a plain object and back.

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
