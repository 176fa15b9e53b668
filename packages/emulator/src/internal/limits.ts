// Limits on what the admin API and the JavaScript methods accept, so no single call can break later
// answers (a nesting JSON.stringify cannot handle, a time no cursor can hold) or stall the server.

/** The documented maxima (README "Limits and protections"). */
export const LIMITS = {
  /** Nesting depth of one log entry, the entry object itself being level 1. */
  entryDepth: 32,
  /** Size of one log entry serialized as JSON, bytes. */
  entryBytes: 64 * 1024,
  /** Entries in one append (`POST /__emulator/logs` or `emu.logs.append()`). */
  entriesPerAppend: 10_000,
  /** Latest `time` (and `startTime`) of an entry: the largest valid JavaScript Date, Unix ms. */
  maxTime: 8_640_000_000_000_000,
  /** `retries` of one simulated message. */
  simulateRetries: 1_000,
  /** `stepMs` of one simulated message: one day. */
  simulateStepMs: 86_400_000,
  /** Rules in one `POST /__emulator/faults`. */
  faultsPerRequest: 100,
  /** Active fault rules at once. */
  activeFaults: 1_000,
  /** `delayMs` of a fault rule: ten minutes. */
  faultDelayMs: 600_000,
  /** Extra response headers of one fault rule. */
  faultHeaders: 64,
  /** Nesting depth of a fault rule's `body`. */
  faultBodyDepth: 32,
  /** Size of a fault rule's `body` as JSON, bytes. */
  faultBodyBytes: 64 * 1024,
  /** Length of a fault rule's `path`. */
  faultPathLength: 2_048,
  /** Nesting depth of a snapshot's `management` part. */
  managementDepth: 32,
} as const;

/**
 * Whether `value` nests objects/arrays deeper than `limit` (a scalar has depth 0, `{}` depth 1):
 * `"deep"`, or `"large"` when it holds more than `maxNodes` objects/arrays (a value sharing sub-objects
 * could otherwise take exponential time), else undefined. Iterative, so a 100,000-level value cannot
 * overflow the stack here.
 */
export function nestingProblem(
  value: unknown,
  limit: number,
  maxNodes: number,
): "deep" | "large" | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const stack: [object, number][] = [[value, 1]];
  let visited = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [object, number];
    if (depth > limit) return "deep";
    if (++visited > maxNodes) return "large";
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) if (typeof c === "object" && c !== null) stack.push([c, depth + 1]);
  }
  return undefined;
}

/** Checks the nesting depth and JSON size of a value; returns a problem naming `where`, if any. */
export function shapeProblem(
  value: unknown,
  where: string,
  maxDepth: number,
  maxBytes: number,
): string | undefined {
  // Every object or array takes at least 2 bytes of JSON, so more than maxBytes / 2 is too large.
  const nesting = nestingProblem(value, maxDepth, Math.ceil(maxBytes / 2));
  if (nesting === "deep") return `${where}: must nest at most ${maxDepth} levels deep`;
  const bytes = nesting === "large" ? Infinity : jsonBytes(value);
  if (bytes > maxBytes) {
    return `${where}: must be at most ${maxBytes} bytes as JSON${bytes === Infinity ? "" : ` (got ${bytes})`}`;
  }
  return undefined;
}

/** Size in bytes of `value` as JSON; call only on values whose nesting is already bounded. */
export const jsonBytes = (value: unknown): number =>
  new TextEncoder().encode(JSON.stringify(value) ?? "").byteLength;

export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const TIME_RULE = `must be an integer Unix time in milliseconds from 0 to ${LIMITS.maxTime}`;

/** A Unix-ms time given as a number or a decimal string, or undefined when it is not a valid one. */
function unixMs(v: unknown): number | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= LIMITS.maxTime ? n : undefined;
}

/** Checks one log entry to append; returns a problem naming the field and the limit, if any. */
export function entryProblem(entry: unknown, where: string): string | undefined {
  if (!isObj(entry)) return `${where}: must be an object`;
  const shape = shapeProblem(entry, where, LIMITS.entryDepth, LIMITS.entryBytes);
  if (shape) return shape;
  if (entry["time"] !== undefined && unixMs(entry["time"]) === undefined) {
    return `${where}.time: ${TIME_RULE}`;
  }
  for (const k of ["messageId", "state"]) {
    const v = entry[k];
    if (v !== undefined && (typeof v !== "string" || v === "")) {
      return `${where}.${k}: must be a non-empty string`;
    }
  }
  return undefined;
}

/** Checks a list of entries to append; returns the first problem, if any. */
export function entriesProblem(entries: unknown, where = "entries"): string | undefined {
  if (!Array.isArray(entries)) return `${where}: must be an array of log entries`;
  if (entries.length > LIMITS.entriesPerAppend) {
    return `${where}: must hold at most ${LIMITS.entriesPerAppend} entries per append (got ${entries.length})`;
  }
  for (let i = 0; i < entries.length; i++) {
    const p = entryProblem(entries[i], `${where}[${i}]`);
    if (p) return p;
  }
  return undefined;
}

const OUTCOMES = new Set(["delivered", "failed", "cancelled", "in-progress"]);

/** Checks `simulateMessage` options; returns a problem naming the option and the limit, if any. */
export function simulateProblem(opts: unknown): string | undefined {
  if (opts === undefined) return undefined;
  if (!isObj(opts)) return "options: must be an object";
  const shape = shapeProblem(opts, "options", LIMITS.entryDepth, LIMITS.entryBytes);
  if (shape) return shape;
  const { retries, stepMs, startTime, outcome } = opts;
  if (
    retries !== undefined &&
    !(
      Number.isInteger(retries) &&
      (retries as number) >= 0 &&
      (retries as number) <= LIMITS.simulateRetries
    )
  ) {
    return `retries: must be an integer from 0 to ${LIMITS.simulateRetries}`;
  }
  if (
    stepMs !== undefined &&
    !(
      Number.isInteger(stepMs) &&
      (stepMs as number) >= 0 &&
      (stepMs as number) <= LIMITS.simulateStepMs
    )
  ) {
    return `stepMs: must be an integer from 0 to ${LIMITS.simulateStepMs} (milliseconds)`;
  }
  if (startTime !== undefined) {
    if (typeof startTime !== "number" || unixMs(startTime) === undefined) {
      return `startTime: ${TIME_RULE}`;
    }
    // Every entry of the message must stay a valid time: about three steps per retry, a few more around.
    const span =
      ((stepMs as number | undefined) ?? 10) * (3 * ((retries as number | undefined) ?? 0) + 10);
    if (startTime + span > LIMITS.maxTime) {
      return `startTime: the message's last entry (about ${span} ms later) must come no later than ${LIMITS.maxTime}`;
    }
  }
  if (outcome !== undefined && !OUTCOMES.has(outcome as string)) {
    return `outcome: must be one of ${[...OUTCOMES].join(", ")}`;
  }
  if (
    opts["messageId"] !== undefined &&
    (typeof opts["messageId"] !== "string" || opts["messageId"] === "")
  ) {
    return "messageId: must be a non-empty string";
  }
  for (const k of ["url", "topicName", "queueName", "scheduleId", "body"]) {
    if (opts[k] !== undefined && typeof opts[k] !== "string") return `${k}: must be a string`;
  }
  const header = opts["header"];
  if (
    header !== undefined &&
    !(
      isObj(header) &&
      Object.values(header).every((v) => Array.isArray(v) && v.every((s) => typeof s === "string"))
    )
  ) {
    return "header: must be an object of string arrays";
  }
  return undefined;
}
