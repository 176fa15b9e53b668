// The filter flags of the logs commands, derived from the `listLogs` parameters in the logs client's
// operation table: a parameter added to the spec becomes a flag without code here.
import { Option, type Command } from "commander";
import { UsageError } from "../context.js";
import {
  describeSchema,
  findOperation,
  paramShape,
  schemaTypes,
  type ParamSpec,
} from "../operation-table.js";
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
}

/** `topicName` → `topic-name`. */
export const kebab = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[_\s]+/g, "-")
    .toLowerCase();

/** `topic-name` → `topicName` (how commander names an option's value). */
export const camel = (flag: string): string =>
  flag.replace(/^--/, "").replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function kindOf(param: ParamSpec): FilterFlag["kind"] {
  const { scalar } = paramShape(param.schema);
  const types = schemaTypes(scalar);
  const numeric = types.includes("integer") || types.includes("number");
  // Unix-millisecond parameters are named for what they hold (`fromDate`, `toDate`): they take dates.
  if (numeric && /(Date|Time)$/.test(param.name)) return "date";
  if (numeric) return "number";
  if (types.length === 1 && types[0] === "boolean") return "boolean";
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
  for (const param of operation?.params ?? []) {
    if (param.in !== "query" || exclude.includes(param.name)) continue;
    let flag = `--${kebab(param.name)}`;
    if (taken.has(flag)) flag = `--filter-${kebab(param.name)}`;
    taken.add(flag);
    const kind = kindOf(param);
    const { repeatable, arrayOnly } = paramShape(param.schema);
    flags.push({ param: param.name, flag, short: undefined, kind, repeatable, arrayOnly });
  }
  // Date ranges read better as --from/--to: offer the name without its suffix when it is free.
  for (const f of flags) {
    if (f.kind !== "date") continue;
    const short = f.flag.replace(/-(date|time)$/, "");
    if (short !== f.flag && !taken.has(short)) {
      f.short = short;
      taken.add(short);
    }
  }
  return flags;
}

const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/** Adds the filter flags to a command, with help built from each parameter's schema. */
export function addFilterOptions(command: Command, flags: readonly FilterFlag[]): void {
  const params = findOperation("listLogs")?.params ?? [];
  for (const f of flags) {
    const param = params.find((p) => p.name === f.param) as ParamSpec;
    const value = f.kind === "date" ? "time" : f.kind === "number" ? "n" : "value";
    const about =
      f.kind === "date"
        ? `${f.param}: ISO date, Unix ms, or a time ago (15m, 2h, 7d)${f.repeatable ? "; repeatable" : ""}`
        : `${f.param} (${describeSchema(param.schema) || "string"})`;
    const description = param.description ?? param.schema.description;
    const text = description === undefined ? about : `${description} ${about}`;
    const shown = new Option(`${f.short ?? f.flag} <${value}>`, text).argParser(collect);
    command.addOption(shown);
    if (f.short !== undefined)
      command.addOption(new Option(`${f.flag} <${value}>`).argParser(collect).hideHelp());
  }
}

function convert(raw: string, f: FilterFlag, shownFlag: string, now: number): unknown {
  switch (f.kind) {
    case "date":
      return parseInstant(raw, shownFlag, now);
    case "number": {
      const n = raw.trim() === "" ? Number.NaN : Number(raw);
      if (!Number.isFinite(n))
        throw new UsageError(`${shownFlag}: expected a number, got ${JSON.stringify(raw)}`);
      return n;
    }
    case "boolean":
      if (raw === "true" || raw === "false") return raw === "true";
      throw new UsageError(`${shownFlag}: expected true or false, got ${JSON.stringify(raw)}`);
    default:
      return raw;
  }
}

/** Reads the filter flags' values into the parameters of `logs.list()`/`logs.pages()`. */
export function readFilters(
  values: Record<string, unknown>,
  flags: readonly FilterFlag[],
  now: number,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const f of flags) {
    const given = [
      ...((values[camel(f.flag)] as string[] | undefined) ?? []),
      ...(f.short ? ((values[camel(f.short)] as string[] | undefined) ?? []) : []),
    ];
    if (given.length === 0) continue;
    const shownFlag = f.short ?? f.flag;
    if (given.length > 1 && !f.repeatable)
      throw new UsageError(`${shownFlag}: given ${given.length} times; it takes one value`);
    const converted = given.map((raw) => convert(raw, f, shownFlag, now));
    params[f.param] = f.arrayOnly || converted.length > 1 ? converted : converted[0];
  }
  return params;
}

/** The flag that sets a parameter (for error messages), or `undefined`. */
export function flagOf(param: string, flags: readonly FilterFlag[]): string | undefined {
  const f = flags.find((x) => x.param === param);
  return f ? (f.short ?? f.flag) : undefined;
}
