// `emu.logs.simulateMessage()`: the entries of one message whose life the caller describes (outcome,
// retries, fields), built by the log generator's lifecycle.
import { Fragment, type NewEntry } from "./log-entry.js";
import { attemptPools, lifecycle, type Ctx, type Outcome } from "./log-generator.js";

export type { Outcome };
import { b64, prng, randomId } from "./prng.js";

/** Options of `emu.logs.simulateMessage()`. */
export interface SimulateMessageOptions {
  /** Id of the message. @default a generated `msg_...` id */
  messageId?: string;
  /** Destination URL. @default "https://example.com/api/webhook" */
  url?: string;
  /** How the message's life ends. @default "delivered" */
  outcome?: Outcome;
  /** Failed attempts before the outcome (for `failed`, the retries that were exhausted). @default 0 */
  retries?: number;
  /** Time of the first entry, Unix milliseconds. @default Date.now() */
  startTime?: number;
  /** Milliseconds between consecutive entries. @default 10 */
  stepMs?: number;
  /** URL group (topic) the message was published to. */
  topicName?: string;
  /** Queue the message went through. */
  queueName?: string;
  /** Schedule that created the message. */
  scheduleId?: string;
  /** Message body as text (stored base64-encoded). */
  body?: string;
  /** Headers of the message. */
  header?: Record<string, string[]>;
  /** Label of the message (`label`, and `labels` holds it too). */
  label?: string;
  /** Flow-control key the message was published with. */
  flowControlKey?: string;
  /** IP address the message was published from. */
  callerIp?: string;
}

/** Builds the entries of one simulated message. */
export function simulateEntries(opts: SimulateMessageOptions, seed: number): NewEntry[] {
  const rng = prng(seed);
  const ctx: Ctx = { rng, pools: attemptPools(rng) };
  const outcome = opts.outcome ?? "delivered";
  const fields: Record<string, unknown> = {
    url: opts.url ?? "https://example.com/api/webhook",
    method: "POST",
    header: opts.header ?? { "Content-Type": ["application/json"] },
    body: b64(opts.body ?? "{}"),
    maxRetries: Math.max(3, opts.retries ?? 0),
    timeout: 30_000,
  };
  if (opts.topicName !== undefined) fields["topicName"] = opts.topicName;
  if (opts.queueName !== undefined) fields["queueName"] = opts.queueName;
  if (opts.scheduleId !== undefined) fields["scheduleId"] = opts.scheduleId;
  if (opts.label !== undefined) {
    fields["label"] = opts.label;
    fields["labels"] = [opts.label];
  }
  if (opts.flowControlKey !== undefined) fields["flowControlKey"] = opts.flowControlKey;
  if (opts.callerIp !== undefined) fields["callerIp"] = opts.callerIp;
  let errors = Math.max(0, Math.floor(opts.retries ?? 0));
  if (outcome === "in-progress" && errors === 0) errors = 1;
  return lifecycle(
    ctx,
    opts.messageId ?? randomId(rng, "msg_"),
    new Fragment(fields),
    opts.startTime ?? Date.now(),
    outcome,
    errors,
    opts.stepMs ?? 10,
  );
}
