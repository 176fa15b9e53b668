// The operations of both APIs as the command line reaches them (the generated table, from the specs),
// and the one way a command-line string becomes a typed value: core's reader of wire strings, with
// the spec's rule, so `--budget 10`, `--param count=7` and `--tls` are read as the service's own
// parameters are.
import { parsePathParam, type Schema } from "@api-clients/core/internal";
import { UsageError } from "./context.js";
import { operations, type CliInput, type CliOperation } from "./generated/operations.js";

export type { CliInput, CliOperation } from "./generated/operations.js";

/** Every operation of both APIs, logs first, in the order of the specs. */
export function allOperations(): readonly CliOperation[] {
  return operations;
}

/** One operation by its operationId, or `undefined`. */
export function findOperation(id: string): CliOperation | undefined {
  return operations.find((op) => op.id === id);
}

/** The operation `id`; a missing one is a defect of the command table (a test checks every row). */
export function operation(id: string): CliOperation {
  const op = findOperation(id);
  if (op === undefined) throw new Error(`no operation ${id} in the specs`);
  return op;
}

/** commander's accumulator of a flag given several times. */
export const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/**
 * One command-line string read by `schema` (turned into its type and checked) through core's reader
 * of wire strings; a wrong value throws a `ValidationError` naming `field`.
 */
export function readValue(schema: Schema, raw: string, field: string): unknown {
  return parsePathParam({ name: field, in: "query", required: true, schema }, raw);
}

/** The field a `ValidationError` names for an input: `count`, `id`, `body.database_name`. */
export const fieldOf = (input: CliInput): string =>
  input.in === "body" ? `body.${input.name}` : input.name;

/** The schema of each value of an input that repeats (or of its one value). */
function itemSchema(input: CliInput): Schema {
  const { schema } = input;
  if (schema.type === "array") return schema.items ?? {};
  const variants = schema.oneOf;
  if (variants === undefined) return schema;
  return variants.find((v) => v.type !== "array") ?? variants.find((v) => v.type)?.items ?? {};
}

/**
 * The values given for an input (each occurrence of `flag`) as the value to send: one value, or an
 * array when the input repeats (always an array for a `type: array` input). An object-typed input
 * takes JSON. A wrong value throws a `ValidationError` naming the input's field (see {@link fieldOf}).
 */
export function readInput(
  input: CliInput,
  raws: readonly string[],
  flag: string,
  warn: (message: string) => void = () => {},
): unknown {
  if (raws.length > 1 && !input.repeatable)
    throw new UsageError(`${flag}: given ${raws.length} times; it takes one value`);
  const schema = itemSchema(input);
  const values = raws.map((raw) => {
    checkKnown(input, raw, flag, warn);
    if (schema.type !== "object") return readValue(schema, raw, fieldOf(input));
    try {
      return JSON.parse(raw) as unknown;
    } catch (error) {
      throw new UsageError(`${flag}: not valid JSON (${(error as Error).message})`);
    }
  });
  return input.schema.type === "array" || values.length > 1 ? values : values[0];
}

/** Edits between `a` and `b`: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** Longest value compared with the known ones (a longer one is no typo of them; bounds the work). */
const MAX_COMPARED = 64;

/**
 * A value of an input with known values (an `enum`, or the known values of an open set): one or two
 * edits from a known value (one for values of three characters or fewer), ignoring case, is a typo:
 * a usage error suggesting it (`faild` → `FAILED`), before anything is sent. A value that differs from
 * it only in digits is a sibling, not a typo (`us-east-2` beside `us-east-1`). Any other value of an
 * open set goes through with a warning; of a closed set, the client's check refuses it.
 */
function checkKnown(
  input: CliInput,
  raw: string,
  flag: string,
  warn: (message: string) => void,
): void {
  const known = input.values;
  if (known === undefined || known.length === 0 || raw.length > MAX_COMPARED) return;
  const folded = raw.toLowerCase();
  if (known.some((value) => value.toLowerCase() === folded)) return;
  const digitless = (text: string) => text.replace(/[0-9]+/g, "#");
  const limit = raw.length <= 3 ? 1 : 2;
  let best: { value: string; edits: number } | undefined;
  for (const value of known) {
    if (digitless(value.toLowerCase()) === digitless(folded)) continue;
    const edits = editDistance(folded, value.toLowerCase());
    if (edits <= limit && (best === undefined || edits < best.edits)) best = { value, edits };
  }
  if (best !== undefined)
    throw new UsageError(
      `${flag}: unknown value ${JSON.stringify(raw)}; did you mean ${best.value}? (${inputHint(input)})`,
    );
  if (input.open === true)
    warn(
      `api-clients: ${flag}: ${JSON.stringify(raw)} is not a value known to this version (${known.join(", ")}); sent as given`,
    );
}

/** What an input takes, for help texts: `integer, 1 to 1000`, `one of: a, b`, `a, b, or any other string`. */
export function inputHint(input: CliInput): string {
  const schema = itemSchema(input);
  const parts: string[] = [];
  if (input.values !== undefined && input.values.length > 0)
    parts.push(
      input.open
        ? `${input.values.join(", ")}, or any other string`
        : `one of: ${input.values.join(", ")}`,
    );
  else if (input.type !== "any") parts.push(input.type);
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    parts.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) parts.push(`>= ${schema.minimum}`);
  else if (schema.maximum !== undefined) parts.push(`<= ${schema.maximum}`);
  if (input.repeatable) parts.push("repeatable");
  return parts.join(", ");
}

/** `topicName` → `topic-name`, `database_name` → `database-name`. */
export const kebab = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[_\s]+/g, "-")
    .toLowerCase();

/** `topic-name` → `topicName` (how commander names an option's value). */
export const camel = (flag: string): string =>
  flag.replace(/^--/, "").replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
