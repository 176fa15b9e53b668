// What every resource module of the management API shares: the caller, a handler's input, the one
// rights check (team roles) and small record helpers.
import { type Entropy } from "./entropy.js";
import { valueSets } from "../generated/operations.js";
import { HttpError } from "./http-error.js";

/** A management account: HTTP Basic user (e-mail) and password (API key). */
export interface Account {
  readonly email: string;
  readonly apiKey: string;
}

/** What a handler gets: the caller, the validated path, query and body. */
export interface OperationInput {
  readonly account: Account;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** The caller's IP address (for the audit log). */
  readonly ip?: string;
}

/** Handlers of operations, by operationId; each returns the JSON body of the 200 answer. */
export type Handlers = Record<string, (input: OperationInput) => unknown>;

/**
 * The rights check every resource passes (owned by `Teams`: one rule for databases,
 * backups, vector and search indexes and QStash users), and the note of what a write touched.
 */
export interface ResourceAccess {
  /** Whether the caller may read and change what `owner` (an e-mail or a team id) owns. */
  canUse(owner: string, account: Account): boolean;
  /** 404 when the caller cannot see `owner`'s resource at all, 403 when its team role forbids `action`. */
  allow(owner: string, account: Account, what: string, action: string): void;
  /** A destination for a move or transfer (the caller's account or a team it may use), or 403/404. */
  destination(target: string, account: Account, field: string): string;
  /** Whether `id` is an existing team. */
  isTeam(id: string): boolean;
  /** Notes, for the audit entry of the running write, the resource's owner (first call) and its id. */
  touch(owner: string | undefined, entity: string): void;
}

/** Values the spec lists for a schema (`x-extensible-enum`, else `enum`): the ones the emulator knows. */
export function known(schema: string): readonly string[] {
  return (valueSets.management as Readonly<Record<string, readonly string[]>>)[schema] ?? [];
}

/** Answers 400 unless `value` is one the spec lists for `schema`. */
export function checkKnown(field: string, value: string, schema: string): void {
  const values = known(schema);
  if (!values.includes(value)) {
    throw new HttpError(
      400,
      `${field}: unknown value ${value}; the emulator knows ${values.join(", ")}`,
    );
  }
}

export const asObj = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

const ADJECTIVES = [
  "brave",
  "calm",
  "eager",
  "fancy",
  "gentle",
  "happy",
  "lively",
  "proud",
  "quick",
  "witty",
];
const ANIMALS = [
  "otter",
  "falcon",
  "lynx",
  "panda",
  "heron",
  "koala",
  "marten",
  "gecko",
  "bison",
  "crane",
];
/** A host slug such as `brave-otter-51234`. */
export const hostName = (e: Entropy): string => {
  const b = e.bytes(3);
  return `${ADJECTIVES[(b[0] ?? 0) % ADJECTIVES.length]}-${ANIMALS[(b[1] ?? 0) % ANIMALS.length]}-${10000 + (((b[2] ?? 0) * 131) % 89999)}`;
};
