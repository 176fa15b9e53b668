// `--json [fields]` and `--jq <expr>` (the `gh` way): a field list keeps only those fields of each
// record, and a jq program (jq itself, compiled to WebAssembly, loaded only when `--jq` is given)
// filters the JSON; strings it prints come out raw, as `jq -r` prints them.
import type { Command } from "commander";
import { UsageError, type Context } from "../context.js";
import { safeJson, safeText } from "./safe.js";

/** What `--json` and `--jq` asked for, read once before the command runs. */
export interface JsonOutput {
  /** `--json a,b`: the fields kept in each record. @default every field */
  fields?: string[];
  /** `--jq <expr>`: the jq program the JSON goes through. */
  jq?: string;
}

const FIELD = /^[^\s,]+$/;

/**
 * Reads the running command's `--json [fields]` and the global `--jq`: a field list or `--jq` turns
 * the command's `--json` on (commands read it as `true`). `--jq` on a command without `--json` is a
 * usage error.
 */
export function readJsonOutput(command: Command, jq: string | undefined): JsonOutput {
  const option = command.options.find((o) => o.long === "--json");
  const hasJson = option !== undefined;
  const json: unknown = hasJson ? command.getOptionValue("json") : undefined;
  // The commands that print through `printJson` declare `--json [fields]` (and `call` prints JSON
  // always); the others (`logs tail`'s NDJSON, `logs summary`) cannot take --jq.
  const filtered = option?.optional === true || command.parent?.name() === "call";
  const output: JsonOutput = {};
  if (typeof json === "string") {
    const fields = json
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    const bad = fields.find((f) => !FIELD.test(f) || f in Object.prototype);
    if (fields.length === 0 || bad !== undefined)
      throw new UsageError(
        `--json: expected a comma-separated list of field names, got ${JSON.stringify(json)}`,
      );
    output.fields = fields;
    command.setOptionValue("json", true);
  }
  if (jq !== undefined) {
    if (!filtered)
      throw new UsageError(
        hasJson
          ? `--jq: not supported by ${command.name()} (its --json cannot be filtered)`
          : `--jq: ${command.name()} prints no JSON`,
      );
    if (hasJson) command.setOptionValue("json", true);
    output.jq = jq;
  }
  return output;
}

/** `record` with only `fields` (absent ones as `null`, as jq's `{a, b}` gives them). */
function pick(record: unknown, fields: readonly string[]): unknown {
  if (typeof record !== "object" || record === null) return record;
  const picked: Record<string, unknown> = {};
  for (const field of fields)
    picked[field] = Object.hasOwn(record, field)
      ? (record as Record<string, unknown>)[field]
      : null;
  return picked;
}

/**
 * Prints `value` as JSON. With a field list, prints `records` (the list a command shows: a page's
 * entries, a message's entries), or `value` itself when it is the record, with only those fields.
 * With `--jq`, prints what the jq program makes of it; a jq error is a usage error with jq's message.
 */
export async function printJson(
  ctx: Context,
  value: unknown,
  records: readonly unknown[] | undefined = Array.isArray(value) ? value : undefined,
): Promise<void> {
  const { fields, jq } = ctx.options;
  const data =
    fields === undefined
      ? value
      : records === undefined
        ? pick(value, fields)
        : records.map((r) => pick(r, fields));
  if (jq === undefined) {
    ctx.out(safeJson(data, 2) + "\n");
    return;
  }
  const { raw } = await import("jq-wasm");
  let out: string;
  try {
    out = await raw(JSON.stringify(data ?? null), jq, ["-r"]);
  } catch (error) {
    throw new UsageError(`--jq: ${(error as Error).message.trim()}`);
  }
  if (out !== "") ctx.out(safeText(out.endsWith("\n") ? out : out + "\n"));
}
