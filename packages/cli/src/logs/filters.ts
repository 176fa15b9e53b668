// The filter flags of the logs commands, derived from the `listLogs` parameters in the generated
// operation table: a parameter added to the spec becomes a flag without code here.
import { longFlag, type FlagSpec } from "../command.js";
import { GLOBAL_LONG_FLAGS } from "../globals.js";
import { UsageError } from "../context.js";
import {
  camel,
  findOperation,
  inputHint,
  kebab,
  readInput,
  readValue,
  type CliInput,
} from "../operations.js";
import { parseInstant } from "./instant.js";

/** One filter flag and the query parameter it fills. */
export interface FilterFlag {
  /** The API's parameter name, e.g. `topicName`. */
  param: string;
  /** The flag, e.g. `--topic-name`. */
  flag: string;
  /** A shorter spelling shown in help, e.g. `--from` for `fromDate` (the long one still works). */
  short: string | undefined;
  kind: "string" | "number" | "boolean" | "date";
  /** The flag may repeat; values are sent as repeated query keys. */
  repeatable: boolean;
  /** The parameter is an array even when given once. */
  arrayOnly: boolean;
  /** Other spellings that set the parameter too, e.g. `--since` for `--from`. */
  aliases: string[];
}

/**
 * CLI names for parameters whose API name misleads on the command line: `count` is the page size
 * (`--count` stays as a deprecated alias), not the number of entries a command prints (`--limit`).
 */
const RENAMED: Record<string, { flag: string; aliases: string[] }> = {
  count: { flag: "--page-size", aliases: ["--count"] },
};

/** Extra spellings of the shortened date flags. */
const DATE_ALIASES: Record<string, string> = { "--from": "--since" };

function kindOf(param: CliInput): FilterFlag["kind"] {
  const numeric = param.type === "integer" || param.type === "number";
  // Unix-millisecond parameters are named for what they hold (`fromDate`, `toDate`): they take dates.
  if (numeric && /(Date|Time)$/.test(param.name)) return "date";
  if (numeric) return "number";
  if (param.type === "boolean") return "boolean";
  return "string";
}

/** The parameters of `listLogs` as flags, minus `exclude`; names that collide with `reserved` get a `--filter-` prefix. */
export function logFilterFlags(
  exclude: readonly string[],
  reserved: ReadonlySet<string>,
): FilterFlag[] {
  const operation = findOperation("listLogs");
  const taken = new Set(reserved);
  const flags: FilterFlag[] = [];
  for (const param of operation?.inputs ?? []) {
    if (param.in !== "query" || exclude.includes(param.name)) continue;
    const renamed = RENAMED[param.name];
    let flag = renamed?.flag ?? `--${kebab(param.name)}`;
    if (taken.has(flag)) flag = `--filter-${kebab(param.name)}`;
    taken.add(flag);
    const aliases = (renamed?.aliases ?? []).filter((a) => !taken.has(a));
    for (const a of aliases) taken.add(a);
    const kind = kindOf(param);
    const { repeatable } = param;
    const arrayOnly = param.schema.type === "array";
    flags.push({ param: param.name, flag, short: undefined, kind, repeatable, arrayOnly, aliases });
  }
  // Date ranges read better as --from/--to: offer the name without its suffix when it is free.
  for (const f of flags) {
    if (f.kind !== "date") continue;
    const short = f.flag.replace(/-(date|time)$/, "");
    if (short !== f.flag && !taken.has(short)) {
      f.short = short;
      taken.add(short);
      const alias = DATE_ALIASES[short];
      if (alias !== undefined && !taken.has(alias)) {
        f.aliases.push(alias);
        taken.add(alias);
      }
    }
  }
  return flags;
}

/** The filter flags as flag specs, with help built from each parameter's schema. */
export function filterSpecs(flags: readonly FilterFlag[]): FlagSpec[] {
  const params = findOperation("listLogs")?.inputs ?? [];
  const specs: FlagSpec[] = [];
  for (const f of flags) {
    const param = params.find((p) => p.name === f.param) as CliInput;
    const value = f.kind === "date" ? "time" : f.kind === "number" ? "n" : "value";
    const about =
      f.kind === "date"
        ? `${f.param}: ISO date, Unix ms, or a time ago (15m, 2h, 7d)${f.repeatable ? "; repeatable" : ""}`
        : `${f.param} (${inputHint(param) || "string"})`;
    const description = param.description;
    const text = description === undefined ? about : `${description} ${about}`;
    const values = param.values;
    specs.push({
      flags: `${f.short ?? f.flag} <${value}>`,
      description: text,
      fills: [f.param],
      repeat: true,
      ...(values === undefined ? {} : { values }),
    });
    if (f.short !== undefined)
      specs.push({ flags: `${f.flag} <${value}>`, repeat: true, hidden: true, fills: [f.param] });
    for (const alias of f.aliases) {
      const deprecated = RENAMED[f.param]?.aliases.includes(alias) === true;
      // A deprecated spelling still works, but is neither shown, completed nor suggested.
      specs.push({
        flags: `${alias} <${value}>`,
        description: deprecated
          ? `deprecated: the same as ${f.short ?? f.flag}`
          : `the same as ${f.short ?? f.flag}`,
        repeat: true,
        ...(deprecated ? { hidden: true } : {}),
      });
    }
  }
  return specs;
}

/**
 * The filter flags of a logs command whose own flags are `own` (minus the parameters `exclude`): what
 * `readFilters` reads, and the specs to declare, own flags first.
 */
export function logFilters(
  exclude: readonly string[],
  own: readonly FlagSpec[],
): { filters: FilterFlag[]; flags: FlagSpec[] } {
  const reserved = new Set(GLOBAL_LONG_FLAGS);
  for (const spec of own) {
    const flag = longFlag(spec);
    reserved.add(flag);
    if (flag.startsWith("--no-")) reserved.add(flag.replace(/^--no-/, "--"));
  }
  const filters = logFilterFlags(exclude, reserved);
  return { filters, flags: [...own, ...filterSpecs(filters)] };
}

const input = (name: string): CliInput =>
  findOperation("listLogs")?.inputs.find((p) => p.name === name) as CliInput;

/** Reads the filter flags' values into the parameters of `logs.list()`/`logs.pages()`. */
export function readFilters(
  values: Record<string, unknown>,
  flags: readonly FilterFlag[],
  now: number,
  warn: (message: string) => void = () => {},
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const f of flags) {
    const spellings = [f.short ?? f.flag, ...(f.short ? [f.flag] : []), ...f.aliases];
    const used = spellings.filter((s) => values[camel(s)] !== undefined);
    const given = used.flatMap((s) => values[camel(s)] as string[]);
    if (given.length === 0) continue;
    // Errors name the spelling the user typed when there was one (`--count` as much as `--page-size`).
    const shownFlag = used.length === 1 ? (used[0] as string) : (f.short ?? f.flag);
    if (given.length > 1 && !f.repeatable)
      throw new UsageError(`${shownFlag}: given ${given.length} times; it takes one value`);
    if (f.kind !== "date") {
      params[f.param] = readInput(input(f.param), given, shownFlag, warn);
      continue;
    }
    const converted = given.map((raw) => parseInstant(raw, shownFlag, now));
    params[f.param] = f.arrayOnly || converted.length > 1 ? converted : converted[0];
  }
  return params;
}

/** The help of `--limit`. */
export const LIMIT_HELP =
  "stop after this many entries (--page-size sets how many each request asks for)";

/** `--limit`: a whole number of entries, at least 1, or undefined when not given. */
export const readLimit = (opts: Readonly<Record<string, unknown>>): number | undefined =>
  opts["limit"] === undefined
    ? undefined
    : (readValue({ type: "integer", minimum: 1 }, opts["limit"] as string, "--limit") as number);
