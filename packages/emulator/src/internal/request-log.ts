// The request log: the last API requests the emulator answered (never admin requests), with the W3C
// trace context each one carried, so a test or an operator can match a client's spans to what arrived.

/** One API request as the emulator saw it. */
export interface RequestRecord {
  /** When it arrived, Unix milliseconds. */
  readonly time: number;
  /** HTTP method. */
  readonly method: string;
  /** Path without the query (query values can be secrets: never kept). */
  readonly path: string;
  /** The spec operation it was routed to, when there is one. */
  operationId?: string;
  /** Status of the answer (unset while it is being answered, or when the connection was dropped). */
  status?: number;
  /** Its `traceparent` header, when it carried a well-formed one (W3C Trace Context). */
  readonly traceparent?: string;
  /** Its `tracestate` header, alongside a well-formed `traceparent`. */
  readonly tracestate?: string;
}

/** Requests kept: the oldest is dropped past this many. */
export const REQUEST_LOG_SIZE = 1000;

const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;
const header = (headers: Headers, name: string): string | undefined => headers.get(name)?.trim();

/** The last {@link REQUEST_LOG_SIZE} API requests, and who wants to hear of each one answered. */
export class RequestLog {
  #records: RequestRecord[] = [];
  #listeners = new Set<(record: RequestRecord) => void>();

  /** Records a request; its status is filled in by `answered()`. */
  add(headers: Headers, method: string, path: string): RequestRecord {
    const traceparent = header(headers, "traceparent")?.toLowerCase();
    const valid = traceparent !== undefined && TRACEPARENT.test(traceparent);
    const tracestate = valid ? header(headers, "tracestate")?.slice(0, 512) : undefined;
    const record: RequestRecord = {
      time: Date.now(),
      method,
      path: path.slice(0, 2048),
      ...(valid ? { traceparent } : {}),
      ...(tracestate ? { tracestate } : {}),
    };
    this.#records.push(record);
    if (this.#records.length > REQUEST_LOG_SIZE) this.#records.shift();
    return record;
  }

  /** Notes the status a request was answered with, and tells the listeners. */
  answered(record: RequestRecord, status: number): void {
    record.status = status;
    for (const listener of this.#listeners) listener(record);
  }

  /** The requests kept, oldest first (copies). */
  list(): RequestRecord[] {
    return this.#records.map((r) => ({ ...r }));
  }

  /** Forgets every request. */
  clear(): void {
    this.#records = [];
  }

  /** Calls `listener` with each request once it is answered; returns the function that stops it. */
  listen(listener: (record: RequestRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** One request as a line of text (the emulator's `--log-requests`). */
export function formatRequest(record: RequestRecord): string {
  const parts = [
    new Date(record.time).toISOString(),
    record.method,
    record.path,
    String(record.status ?? "-"),
  ];
  if (record.operationId) parts.push(record.operationId);
  if (record.traceparent) parts.push(`traceparent=${record.traceparent}`);
  return parts.join(" ");
}
