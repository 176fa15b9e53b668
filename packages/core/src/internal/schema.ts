// The one runtime checker of the spec's rules, shared by the clients (typed values, before a request)
// and the emulator (wire strings, on arrival). Codegen (scripts/lib/openapi.mjs) compiles each
// operation's parameters and body into the `$ref`-free `Schema` subset below; nothing here reads a spec.
import { ValidationError } from "../errors.js";

import type { OperationRules, ParameterRule, Schema } from "../operation.js";

export type { OperationRules, OperationSpec, ParameterRule, Schema } from "../operation.js";

/** How {@link checkValue}, {@link parseQuery} and {@link parsePathParam} treat what a schema leaves open. */
export interface CheckOptions {
  /** Collects the paths of object keys the schema does not declare (when it does not refuse them). */
  readonly unknown?: string[];
  /**
   * Refuse a value outside the `known` values of an open set (`x-extensible-enum`), as the service
   * does today: for the emulator. Clients leave these sets open (a value added later must pass).
   * @default false
   */
  readonly closedKnown?: boolean;
}

type Obj = Record<string, unknown>;

/**
 * The checker's options, with the keyword checks each entry point brings: {@link checkObject} (a
 * body), and {@link checkMore} (string lengths, patterns, item counts), which codegen leaves out of
 * the client tables (the service's to refuse), so that a client bundle carries only what it checks.
 */
interface Walk extends CheckOptions {
  readonly object?: typeof checkObject;
  readonly more?: typeof checkMore;
  readonly strings?: typeof stringNoun;
  /** A path parameter's value as one path segment (no client without path parameters needs it). */
  readonly segment?: typeof checkPathSegment;
  /** `closedKnown` (no client table carries `known` values). */
  readonly known?: typeof checkKnown;
}

const quoteList = (values: readonly unknown[]): string =>
  values.map((v) => JSON.stringify(v)).join(", ");

/** ` from 1 to 1000`, ` >= 1`, ` <= 9` or nothing. */
function range(min: number | undefined, max: number | undefined, unit = ""): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}${unit}`;
  if (min !== undefined) return ` >= ${min}${unit}`;
  if (max !== undefined) return ` <= ${max}${unit}`;
  return "";
}

/**
 * What a schema's values are, as a noun phrase: `an integer from 1 to 1000`, `a non-empty string`
 * (a string's length through `opts.strings`, which the client tables never need).
 */
function noun(schema: Schema, opts?: Walk): string {
  const { type } = schema;
  if (schema.enum !== undefined) return `one of ${quoteList(schema.enum)}`;
  if (type === "string") return opts?.strings?.(schema) ?? "a string";
  if (type === "integer") return `an integer${range(schema.minimum, schema.maximum)}`;
  if (type === "number") return `a number${range(schema.minimum, schema.maximum)}`;
  if (type === "array") {
    const items = schema.items?.type;
    return items && items !== "array" ? `an array of ${items}s` : "an array";
  }
  return type === "boolean" ? "a boolean" : type === "object" ? "an object" : "a value";
}

/** A string schema as a noun phrase, with its length: `a non-empty string`, `a string of 1 to 9 characters`. */
function stringNoun(schema: Schema): string {
  const { minLength: min, maxLength: max } = schema;
  if (min === 1 && max === undefined) return "a non-empty string";
  if (min === undefined && max === undefined) return "a string";
  if (max === undefined) return `a string of at least ${min} characters`;
  if (min === undefined || min === 0) return `a string of at most ${max} characters`;
  return `a string of ${min} to ${max} characters`;
}

const isPlainObject = (v: unknown): v is Obj => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

const patterns = new Map<string, RegExp>();
/** Compiles a spec pattern once (as a Unicode regex when it is valid as one). */
function compiled(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, "u");
    } catch {
      re = new RegExp(pattern);
    }
    patterns.set(pattern, re);
  }
  return re;
}

/** Length in code points, as JSON Schema counts string length. */
const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** Whether `value` has the JSON type `type` (no type accepts anything). */
function hasType(type: Schema["type"], value: unknown): boolean {
  switch (type) {
    case "string":
    case "boolean":
      return typeof value === type;
    case "integer":
      return Number.isInteger(value);
    case "number":
      return Number.isFinite(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return true;
  }
}

function checkScalar(schema: Schema, value: unknown, field: string, opts: Walk): void {
  if (
    typeof value === "number" &&
    ((schema.minimum !== undefined && value < schema.minimum) ||
      (schema.maximum !== undefined && value > schema.maximum))
  ) {
    throw new ValidationError(field, `must be ${noun(schema)}`);
  }
  opts.more?.(schema, value, field);
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    throw new ValidationError(field, `must be ${noun(schema)}`);
  }
  opts.known?.(schema, value, field, opts);
}

/** With `closedKnown` (the emulator), a value outside an open set's known values is refused. */
function checkKnown(schema: Schema, value: unknown, field: string, opts: Walk): void {
  if (opts.closedKnown && schema.known !== undefined && !schema.known.includes(value as string)) {
    throw new ValidationError(field, `must be one of ${quoteList(schema.known)}`);
  }
}

/** The keywords outside the client subset: string lengths and patterns, array item counts. */
function checkMore(schema: Schema, value: unknown, field: string): void {
  if (typeof value === "string") {
    const { minLength: min, maxLength: max } = schema;
    if (min !== undefined || max !== undefined) {
      const n = codePoints(value);
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
        throw new ValidationError(field, `must be ${stringNoun(schema)}`);
      }
    }
    if (schema.pattern !== undefined && !compiled(schema.pattern).test(value)) {
      throw new ValidationError(field, `must match the pattern ${schema.pattern}`);
    }
  } else if (Array.isArray(value)) {
    const { minItems: min, maxItems: max } = schema;
    if ((min !== undefined && value.length < min) || (max !== undefined && value.length > max)) {
      throw new ValidationError(field, `must have${range(min, max, " items")}`);
    }
  }
}

function checkOneOf(variants: readonly Schema[], value: unknown, field: string, opts: Walk) {
  // The first variant of the value's type decides; its error is the most telling one.
  let first: unknown;
  for (const variant of variants) {
    if (!hasType(variant.type, value)) continue;
    const found: string[] = [];
    try {
      walk(variant, value, field, opts.unknown ? { ...opts, unknown: found } : opts);
      opts.unknown?.push(...found);
      return;
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      first ??= e;
    }
  }
  throw (
    first ??
    new ValidationError(field, `must be ${variants.map((v) => noun(v, opts)).join(" or ")}`)
  );
}

function checkObject(schema: Schema, value: Obj, field: string, opts: Walk): void {
  const props = schema.properties ?? {};
  const at = (key: string) => (field === "" ? key : `${field}.${key}`);
  for (const key of schema.required ?? []) {
    const v = value[key];
    if (v === undefined || (v === null && props[key]?.nullable !== true)) {
      throw new ValidationError(at(key), "is required");
    }
  }
  const present = (key: string) => value[key] !== undefined && value[key] !== null;
  const groups = schema.anyRequired;
  if (groups !== undefined && !groups.some((group) => group.every(present))) {
    const [first = [], ...others] = groups;
    throw new ValidationError(
      at(first.join(", ")),
      `is required (or ${others.map((group) => quoteList(group)).join(" or ")})`,
    );
  }
  const extra = schema.additionalProperties;
  for (const key of Object.keys(value)) {
    const v = value[key];
    const sub = Object.hasOwn(props, key) ? props[key] : undefined;
    if (sub !== undefined) {
      if (v !== undefined) walk(sub, v, at(key), opts);
    } else if (extra === false) {
      throw new ValidationError(
        at(key),
        `is not a known field (expected one of ${quoteList(Object.keys(props))})`,
      );
    } else if (typeof extra === "object") {
      walk(extra, v, at(key), opts);
    } else if (v !== undefined) {
      opts.unknown?.push(at(key));
    }
  }
}

function walk(schema: Schema, value: unknown, field: string, opts: Walk): void {
  if (value === null && (schema.nullable === true || (schema.type === undefined && !schema.enum)))
    return;
  if (schema.oneOf !== undefined) return checkOneOf(schema.oneOf, value, field, opts);
  const type = schema.type ?? (schema.properties ? "object" : undefined);
  if (!hasType(type, value)) throw new ValidationError(field, `must be ${noun(schema, opts)}`);
  // Parameters are never objects (codegen refuses them); a body brings `checkObject`.
  if (type === "object") return opts.object?.(schema, value as Obj, field, opts);
  if (type === "array") {
    const list = value as unknown[];
    opts.more?.(schema, list, field);
    if (schema.items !== undefined) {
      for (let i = 0; i < list.length; i++) walk(schema.items, list[i], `${field}[${i}]`, opts);
    }
    return;
  }
  checkScalar(schema, value, field, opts);
}

/**
 * Checks a typed JS value against a compiled schema; throws {@link ValidationError} naming the first
 * offending field (`body.read_regions[0]: must be a string`). Object keys the schema does not declare
 * are refused when it says `additionalProperties: false`; otherwise their paths are pushed to
 * `unknown` when given (so a client can warn about a likely typo). The fourth argument is that list,
 * or {@link CheckOptions} (`{ unknown, closedKnown }`).
 */
export function checkValue(
  schema: Schema,
  value: unknown,
  field: string,
  options?: string[] | CheckOptions,
): void {
  walk(schema, value, field, {
    ...FULL,
    ...(Array.isArray(options) ? { unknown: options } : options),
  });
}

/** Every keyword: for {@link checkValue}, {@link checkParams} and the wire side (the emulator). */
const FULL: Walk = {
  object: checkObject,
  more: checkMore,
  strings: stringNoun,
  segment: checkPathSegment,
  known: checkKnown,
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses a string URL encoding would throw on (`URIError`): a lone UTF-16 surrogate. */
export function requireWellFormed(value: string, field: string): void {
  if (LONE_SURROGATE.test(value)) {
    throw new ValidationError(field, "must be well-formed Unicode (it holds a lone surrogate)");
  }
}

function checkPathSegment(value: unknown, field: string): void {
  if (typeof value !== "string") return;
  if (value === "") throw new ValidationError(field, "must be a non-empty string");
  if (value === "." || value === "..") throw new ValidationError(field, 'must not be "." or ".."');
  if (/[\r\n]/.test(value)) throw new ValidationError(field, "must not contain a line break");
}

/**
 * Checks the path or query parameters a client is about to send (`values`, by name) against the
 * operation's rules: required ones present, unknown query names refused, each value by its schema,
 * strings well-formed, path values usable as one path segment. Errors name `<field>.<name>` (or
 * `<name>` when `field` is `""`).
 */
export function checkParams(
  rules: readonly ParameterRule[],
  location: "path" | "query",
  values: Readonly<Record<string, unknown>> | undefined,
  field: string,
): void {
  params(rules, location, values, field, FULL);
}

function params(
  rules: readonly ParameterRule[],
  location: "path" | "query",
  values: Readonly<Record<string, unknown>> | undefined,
  field: string,
  opts: Walk,
): void {
  const at = (name: string) => (field === "" ? name : `${field}.${name}`);
  const own = rules.filter((r) => r.in === location);
  if (values !== undefined && !isPlainObject(values)) {
    throw new ValidationError(field || location, "must be an object");
  }
  if (location === "query" && values !== undefined) {
    for (const key of Object.keys(values)) {
      if (values[key] === undefined || own.some((r) => r.name === key)) continue;
      const expected = own.length
        ? `expected one of ${quoteList(own.map((r) => r.name))}`
        : "the operation takes none";
      throw new ValidationError(at(key), `is not a known parameter (${expected})`);
    }
  }
  for (const rule of own) {
    const value = values?.[rule.name];
    const name = at(rule.name);
    if (value === undefined) {
      if (rule.required || location === "path") throw new ValidationError(name, "is required");
      continue;
    }
    if (location === "path") opts.segment?.(value, name);
    for (const s of Array.isArray(value) ? value : [value]) {
      if (typeof s === "string") requireWellFormed(s, name);
    }
    walk(rule.schema, value, name, opts);
  }
}

/**
 * A client's check of one call against its operation's rules, with the keywords client tables carry:
 * path and query parameters, then the body; returns the warnings about body fields the spec does not
 * list. `body` is the value sent (`undefined` when no body is sent). {@link checkQuery} for a spec
 * whose operations take only a query, {@link checkRequest} otherwise: each client passes the one its
 * spec needs, so a bundle carries no rules it cannot use.
 */
export type RequestCheck = (
  operation: OperationRules,
  path: object | undefined,
  query: object | undefined,
  body: { readonly value: unknown } | undefined,
) => string[] | undefined;

/**
 * {@link RequestCheck} of a spec whose operations take only a query: an operation with a path
 * parameter or a body is a TypeError (its rules would go unchecked).
 */
export const checkQuery: RequestCheck = (operation, path, query) => {
  if (operation.body !== undefined || operation.params.some((rule) => rule.in === "path")) {
    throw new TypeError("this client checks query parameters only");
  }
  params(operation.params, "path", path as Obj | undefined, "", {});
  params(operation.params, "query", query as Obj | undefined, "", {});
  return undefined;
};

/** {@link RequestCheck} of path and query parameters and the body. */
export const checkRequest: RequestCheck = (operation, path, query, body) => {
  const rule = operation.body;
  const opts: Walk = { segment: checkPathSegment };
  params(operation.params, "path", path as Obj | undefined, "", opts);
  params(operation.params, "query", query as Obj | undefined, "", opts);
  if (rule === undefined) return undefined;
  if (body === undefined) {
    if (rule.required) throw new ValidationError("body", "is required");
    return undefined;
  }
  const unknown: string[] = [];
  walk(rule.schema, body.value, "body", { object: checkObject, unknown });
  return unknown.map((field) => `${field} is not in the spec; sent as given`);
};

/** The array form of a parameter that may repeat: an `array` schema or a `oneOf` with one. */
function repeatable(schema: Schema): Schema | undefined {
  if (schema.type === "array") return schema;
  return schema.oneOf?.find((s) => s.type === "array");
}

/** Turns one wire string into the schema's type, then checks it. */
function coerce(schema: Schema, raw: string, field: string, opts: Walk): unknown {
  if (schema.oneOf !== undefined) {
    let first: unknown;
    for (const variant of schema.oneOf) {
      try {
        return coerce(variant, raw, field, opts);
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        first ??= e;
      }
    }
    throw (
      first ??
      new ValidationError(field, `must be ${schema.oneOf.map((v) => noun(v, opts)).join(" or ")}`)
    );
  }
  let value: unknown = raw;
  if (schema.type === "integer" || schema.type === "number") {
    const ok = schema.type === "integer" ? /^-?\d+$/.test(raw) : raw.trim() !== "";
    value = ok ? Number(raw) : NaN;
  } else if (schema.type === "boolean") {
    if (raw !== "true" && raw !== "false")
      throw new ValidationError(field, "must be true or false");
    value = raw === "true";
  }
  walk(schema, value, field, opts);
  return value;
}

/**
 * Reads a request's query string by the operation's rules (wire side): each value turned into its
 * schema's type and checked, repeated keys collected into an array for a parameter that may repeat
 * (its value is then always an array), a non-repeatable parameter given twice refused, defaults
 * applied. Unknown names are ignored. Throws {@link ValidationError} naming the parameter.
 * `options.closedKnown` refuses values outside an open set's `known` ones (the emulator).
 */
export function parseQuery(
  rules: readonly ParameterRule[],
  search: URLSearchParams,
  options: Pick<CheckOptions, "closedKnown"> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const opts = { ...FULL, ...options };
  for (const rule of rules) {
    if (rule.in !== "query") continue;
    const raws = search.getAll(rule.name);
    if (raws.length === 0) {
      if (rule.required) throw new ValidationError(rule.name, "is required");
      if (rule.schema.default !== undefined) out[rule.name] = rule.schema.default;
      continue;
    }
    const list = repeatable(rule.schema);
    if (list !== undefined) {
      const items = list.items ?? {};
      const values = raws.map((raw, i) => coerce(items, raw, `${rule.name}[${i}]`, opts));
      walk(list, values, rule.name, opts);
      out[rule.name] = values;
      continue;
    }
    if (raws.length > 1) throw new ValidationError(rule.name, "must appear at most once");
    out[rule.name] = coerce(rule.schema, raws[0] as string, rule.name, opts);
  }
  return out;
}

/**
 * Reads one (already percent-decoded) path parameter by its rule; throws {@link ValidationError}.
 * `options.closedKnown` as in {@link parseQuery}.
 */
export function parsePathParam(
  rule: ParameterRule,
  raw: string,
  options: Pick<CheckOptions, "closedKnown"> = {},
): unknown {
  return coerce(rule.schema, raw, rule.name, { ...FULL, ...options });
}
