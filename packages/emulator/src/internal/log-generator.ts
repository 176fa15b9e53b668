// Deterministic generator of realistic message lifecycles: the same seed gives the same entries.
import { EMPTY_FRAGMENT, Fragment, type NewEntry } from "./log-entry.js";
import { b64, int, pick, prng, randomId, type Rng } from "./prng.js";

const HOSTS = [
  "https://api.shop.example.com",
  "https://hooks.billing.example.io",
  "https://worker.example.dev",
  "https://notify.example.net",
  "https://eu.ingest.example.com",
  "https://jobs.internal.example.org",
];
const PATHS = [
  "/webhooks/orders",
  "/webhooks/payments",
  "/api/jobs/reindex",
  "/api/email/send",
  "/api/cron/cleanup",
  "/v1/events",
  "/api/thumbnails",
  "/api/sync",
];
const TOPICS = ["orders", "payments", "emails", "analytics", "audit"];
const QUEUES = ["default", "emails", "critical", "bulk-import"];
const LABELS = ["billing", "signup", "nightly", "priority"];
const CALLER_IPS = ["203.0.113.7", "203.0.113.42", "198.51.100.23", "2001:db8::5"];
const EVENTS = ["order.created", "order.paid", "user.signup", "invoice.sent", "report.ready"];
const ERRORS: readonly (readonly [string, number | undefined])[] = [
  ["Service Unavailable", 503],
  ["Internal Server Error", 500],
  ["Bad Gateway", 502],
  ["Too Many Requests", 429],
  ["Gateway Timeout", 504],
  ["dial tcp: lookup failed: no such host", undefined],
  ["context deadline exceeded (Client.Timeout exceeded while awaiting headers)", undefined],
];

/** Per-state pools of attempt fragments, shared by many entries so their JSON is built once. */
export function attemptPools(rng: Rng): { delivered: Fragment[]; error: Fragment[] } {
  const delivered: Fragment[] = [];
  for (const status of [200, 200, 200, 201, 202, 204]) {
    const body = status === 204 ? "" : JSON.stringify({ ok: true, id: int(rng, 1000, 99999) });
    delivered.push(
      new Fragment({
        responseStatus: status,
        ...(body ? { responseBody: b64(body) } : {}),
        responseHeaders: {
          "Content-Type": ["application/json"],
          Date: [new Date(1_700_000_000_000 + int(rng, 0, 1e9)).toUTCString()],
        },
      }),
    );
  }
  const error = ERRORS.map(
    ([message, status]) =>
      new Fragment({
        error: status === undefined ? message : `${status} ${message}`,
        ...(status === undefined
          ? {}
          : {
              responseStatus: status,
              responseBody: b64(JSON.stringify({ error: message })),
              responseHeaders: { "Content-Type": ["application/json"] },
            }),
      }),
  );
  return { delivered, error };
}

/**
 * A message "shape": where it goes and how; many messages share one, each with its own id. Fields
 * added after the first version (`callerIp`, a second label, flow-control settings) come from
 * `more`, a separate stream, so a seed still gives the same entries as before plus those fields.
 */
function template(rng: Rng, i: number, more: Rng): Fragment {
  const url = pick(rng, HOSTS) + pick(rng, PATHS);
  const f: Record<string, unknown> = {
    url,
    method: rng() < 0.9 ? "POST" : pick(rng, ["PUT", "GET"]),
  };
  const event = pick(rng, EVENTS);
  f["header"] = {
    "Content-Type": ["application/json"],
    "Upstash-Forward-X-Event": [event],
  };
  f["body"] = b64(JSON.stringify({ event, id: int(rng, 1, 1_000_000) }));
  const kind = rng();
  if (kind < 0.3) {
    f["topicName"] = pick(rng, TOPICS);
    f["endpointName"] = `endpoint-${int(rng, 1, 3)}`;
  } else if (kind < 0.5) {
    f["queueName"] = pick(rng, QUEUES);
  } else if (kind < 0.62) {
    f["scheduleId"] = randomId(rng, "scd_", 20);
  }
  f["timeout"] = pick(rng, [15_000, 30_000, 60_000]);
  f["maxRetries"] = pick(rng, [0, 1, 3, 3, 3, 5]);
  if (rng() < 0.3) f["retryDelayExpression"] = "pow(2, retried) * 1000";
  if (rng() < 0.2) {
    f["callback"] = "https://callbacks.example.com/delivered";
    f["callbackHeaders"] = { "X-Callback-Source": ["emulator"] };
  }
  if (rng() < 0.2) {
    f["failureCallback"] = "https://callbacks.example.com/failed";
    f["failureCallbackHeaders"] = { "X-Callback-Source": ["emulator"] };
  }
  if (rng() < 0.25) {
    const label = pick(rng, LABELS);
    f["label"] = label;
    f["labels"] = [label];
    // Some messages carry two labels: a filter on either finds them.
    const second = pick(more, LABELS);
    if (more() < 0.3 && second !== label) f["labels"] = [label, second];
  }
  if (rng() < 0.15) {
    f["flowControlKey"] = `tenant-${i % 7}`;
    if (more() < 0.7) f["parallelism"] = pick(more, [1, 2, 5, 10]);
    if (more() < 0.5) {
      f["rate"] = pick(more, [10, 50, 100]);
      f["period"] = pick(more, [1, 60]);
    }
  }
  f["callerIp"] = pick(more, CALLER_IPS);
  return new Fragment(f);
}

/** How a message's life ends. */
export type Outcome = "delivered" | "failed" | "cancelled" | "in-progress";

export interface Ctx {
  readonly rng: Rng;
  readonly pools: { delivered: Fragment[]; error: Fragment[] };
}

/** Builds the entries of one message's life, starting at `start`. */
export function lifecycle(
  ctx: Ctx,
  messageId: string,
  shared: Fragment,
  start: number,
  outcome: Outcome,
  errors: number,
  step?: number,
): NewEntry[] {
  const { rng, pools } = ctx;
  const out: NewEntry[] = [];
  let t = start;
  const add = (state: string, extra: Fragment = EMPTY_FRAGMENT, next = -1): void => {
    out.push({ time: t, messageId, state, shared, extra, next });
  };
  const advance = (min: number, max: number): void => {
    t += step ?? int(rng, min, max);
  };
  add("CREATED");
  if (outcome === "cancelled" && errors === 0) {
    advance(50, 5_000);
    add("CANCEL_REQUESTED");
    advance(5, 200);
    add("CANCELLED");
    return out;
  }
  advance(2, 150);
  add("ACTIVE");
  for (let k = 0; k < errors; k++) {
    advance(20, 3_000);
    const err = pick(rng, pools.error);
    add("ERROR", err);
    if (outcome === "failed" && k === errors - 1) {
      advance(1, 20);
      add("FAILED", err);
      return out;
    }
    advance(1, 20);
    const delay = step ?? 1000 * 2 ** Math.min(k, 10);
    add("RETRY", EMPTY_FRAGMENT, t + delay);
    if (outcome === "in-progress" && k === errors - 1) return out;
    if (outcome === "cancelled" && k === errors - 1) {
      advance(10, 500);
      add("CANCEL_REQUESTED");
      advance(5, 200);
      add("CANCELLED");
      return out;
    }
    t += delay;
    add("ACTIVE");
  }
  if (outcome === "in-progress") return out;
  if (outcome === "failed") {
    // No retries allowed: the first error fails the message.
    advance(20, 3_000);
    const err = pick(rng, pools.error);
    add("ERROR", err);
    advance(1, 20);
    add("FAILED", err);
    return out;
  }
  advance(20, 2_000);
  add("DELIVERED", pick(rng, pools.delivered));
  return out;
}

/** Generates exactly `count` entries, sorted by time, the newest at `endTime`. */
export function generateLogs(count: number, seed: number, endTime: number): NewEntry[] {
  const rng = prng(seed);
  const ctx: Ctx = { rng, pools: attemptPools(rng) };
  const more = prng(seed ^ 0x5bd1e995);
  const templates = Array.from({ length: 256 }, (_, i) => template(rng, i, more));
  const span = Math.min(14 * 86_400_000, Math.max(3_600_000, count * 1_000));
  const step = span / Math.max(1, count / 3.6);
  const entries: (NewEntry & { time: number })[] = [];
  let i = 0;
  while (entries.length < count) {
    const start = Math.floor(i * step + rng() * step);
    const shared = templates[Math.floor(rng() * templates.length)] as Fragment;
    const maxRetries = shared.fields["maxRetries"] as number;
    const r = rng();
    let outcome: Outcome = "delivered";
    let errors = 0;
    if (r < 0.72) errors = 0;
    else if (r < 0.84 && maxRetries > 0) errors = int(rng, 1, maxRetries);
    else if (r < 0.92) {
      outcome = "failed";
      errors = maxRetries;
    } else if (r < 0.96) {
      outcome = "cancelled";
      errors = rng() < 0.5 ? 0 : Math.min(1, maxRetries);
    } else if (maxRetries > 0) {
      outcome = "in-progress";
      errors = int(rng, 1, maxRetries);
    }
    const messageId = randomId(rng, "msg_");
    for (const e of lifecycle(ctx, messageId, shared, start, outcome, errors)) {
      if (entries.length === count) break;
      entries.push(e);
    }
    i++;
  }
  entries.sort((a, b) => a.time - b.time);
  const last = entries[entries.length - 1];
  const shift = last ? endTime - last.time : 0;
  for (const e of entries) {
    e.time += shift;
    if (e.next >= 0) (e as { next: number }).next += shift;
  }
  return entries;
}
