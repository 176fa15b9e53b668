import type { RecordedRequest, ScriptedResponse } from "../../../core/test/support/test-server.js";

export { startTestServer, closedPortUrl } from "../../../core/test/support/test-server.js";
export type { TestServer } from "../../../core/test/support/test-server.js";

/** A log entry as the fake server sends it. */
export interface FakeEntry {
  time: number;
  messageId: string;
  state: string;
}

/** `count` entries, oldest first, one millisecond apart. */
export function makeEntries(count: number): FakeEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    time: 1_700_000_000_000 + i,
    messageId: `msg_${i}`,
    state: "DELIVERED",
  }));
}

/**
 * A responder that pages through `entries` (in the order given) with cursors `<time>-<index>`, honouring
 * `count` (default 1000) and answering 400 for a cursor it never handed out.
 */
export function pagingResponder(entries: readonly FakeEntry[]) {
  return (request: RecordedRequest): ScriptedResponse => {
    const count = Number(request.query.get("count") ?? 1000);
    const cursor = request.query.get("cursor");
    const start = cursor === null ? 0 : Number(cursor.split("-")[1]);
    if (!Number.isInteger(start)) return { status: 400, body: { error: "bad cursor" } };
    const events = entries.slice(start, start + count);
    const next = start + count;
    const body =
      next < entries.length ? { cursor: `${entries[next]!.time}-${next}`, events } : { events };
    return { status: 200, body };
  };
}
