// Compiles the OpenAPI documents (src/generated/specs.ts) into operations the server can route and
// validate against. Every rule checked here is read from the spec: nothing is restated by hand.

/** The subset of JSON Schema the specs use, with every `$ref` already resolved. */
export interface Schema {
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: boolean | Schema;
  readonly items?: Schema;
  readonly default?: unknown;
  readonly oneOf?: readonly Schema[];
}

/** A path or query parameter of an operation. */
export interface ParameterSpec {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly schema: Schema;
}

/** Which API an operation belongs to, which decides its authentication. */
export type ApiName = "logs" | "management";

/** One operation of a spec, ready for routing and validation. */
export interface CompiledOperation {
  readonly api: ApiName;
  readonly operationId: string;
  readonly method: string;
  readonly pathTemplate: string;
  readonly auth: "bearer" | "basic" | "none";
  readonly pathParams: readonly ParameterSpec[];
  readonly queryParams: readonly ParameterSpec[];
  readonly body: { readonly required: boolean; readonly schema: Schema } | undefined;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Follows a local `$ref` (`#/components/...`) inside `doc`. */
function deref(doc: Obj, node: unknown, depth = 0): unknown {
  if (!isObj(node) || typeof node["$ref"] !== "string") return node;
  if (depth > 32) throw new Error(`$ref cycle at ${node["$ref"]}`);
  const ref = node["$ref"];
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported: ${ref}`);
  let target: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    target = isObj(target) ? target[key] : undefined;
  }
  if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
  return deref(doc, target, depth + 1);
}

/** Resolves a schema and everything below it into a `$ref`-free tree. */
function resolveSchema(doc: Obj, node: unknown, depth = 0): Schema {
  if (depth > 64) throw new Error("schema nesting too deep");
  const s = deref(doc, node);
  if (!isObj(s)) return {};
  const out: Record<string, unknown> = { ...s };
  if (isObj(s["properties"])) {
    const props: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(s["properties"]))
      props[k] = resolveSchema(doc, v, depth + 1);
    out["properties"] = props;
  }
  if (s["items"] !== undefined) out["items"] = resolveSchema(doc, s["items"], depth + 1);
  if (isObj(s["additionalProperties"])) {
    out["additionalProperties"] = resolveSchema(doc, s["additionalProperties"], depth + 1);
  }
  if (Array.isArray(s["oneOf"]))
    out["oneOf"] = s["oneOf"].map((x) => resolveSchema(doc, x, depth + 1));
  return out as Schema;
}

function resolveParameter(doc: Obj, node: unknown): ParameterSpec {
  const p = deref(doc, node);
  if (!isObj(p) || typeof p["name"] !== "string") throw new Error("malformed parameter");
  return {
    name: p["name"],
    in: p["in"] as ParameterSpec["in"],
    required: p["required"] === true,
    schema: resolveSchema(doc, p["schema"]),
  };
}

/** Reads the authentication an operation asks for from its `security` and the security schemes. */
function authOf(doc: Obj, op: Obj): CompiledOperation["auth"] {
  const security = (op["security"] ?? doc["security"]) as unknown;
  if (!Array.isArray(security) || security.length === 0) return "none";
  const schemes =
    (isObj(doc["components"]) ? doc["components"]["securitySchemes"] : undefined) ?? {};
  for (const requirement of security) {
    if (!isObj(requirement)) continue;
    for (const name of Object.keys(requirement)) {
      const scheme = isObj(schemes) ? schemes[name] : undefined;
      if (isObj(scheme) && scheme["type"] === "http") {
        if (String(scheme["scheme"]).toLowerCase() === "bearer") return "bearer";
        if (String(scheme["scheme"]).toLowerCase() === "basic") return "basic";
      }
    }
  }
  return "none";
}

/** Turns one spec document into its operations. */
export function compileSpec(api: ApiName, doc: Record<string, unknown>): CompiledOperation[] {
  const ops: CompiledOperation[] = [];
  const paths = isObj(doc["paths"]) ? doc["paths"] : {};
  for (const [pathTemplate, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObj(item)) continue;
    const shared = Array.isArray(item["parameters"]) ? item["parameters"] : [];
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObj(op) || typeof op["operationId"] !== "string") continue;
      const own = Array.isArray(op["parameters"]) ? op["parameters"] : [];
      // Operation-level parameters override path-level ones of the same name and location.
      const byKey = new Map<string, ParameterSpec>();
      for (const p of [...shared, ...own].map((x) => resolveParameter(doc, x))) {
        byKey.set(`${p.in}:${p.name}`, p);
      }
      const params = [...byKey.values()];
      let body: CompiledOperation["body"];
      const rb = deref(doc, op["requestBody"]);
      if (isObj(rb)) {
        const content = isObj(rb["content"]) ? rb["content"] : {};
        const json = content["application/json"];
        body = {
          required: rb["required"] === true,
          schema: resolveSchema(doc, isObj(json) ? json["schema"] : undefined),
        };
      }
      ops.push({
        api,
        operationId: op["operationId"],
        method: method.toUpperCase(),
        pathTemplate,
        auth: authOf(doc, op),
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        body,
      });
    }
  }
  return ops;
}

/** A request that breaks a rule of the spec: `field` and `rule` make the `{ error }` message. */
export class SpecViolation extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

const describe = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Checks a scalar against `enum`, bounds and lengths of its schema. */
function checkConstraints(schema: Schema, value: unknown, field: string): void {
  if (schema.enum && !schema.enum.includes(value)) {
    throw new SpecViolation(field, `must be one of ${schema.enum.map(describe).join(", ")}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) {
      throw new SpecViolation(field, `must be at least ${schema.minimum}`);
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      throw new SpecViolation(field, `must be at most ${schema.maximum}`);
    }
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      throw new SpecViolation(
        field,
        schema.minLength === 1
          ? "must not be empty"
          : `must be at least ${schema.minLength} characters`,
      );
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      throw new SpecViolation(field, `must be at most ${schema.maxLength} characters`);
    }
  }
}

/** Turns the text of a query or path parameter into the type of its schema, then checks it. */
export function coerceParameter(param: ParameterSpec, raw: string): unknown {
  const { schema, name } = param;
  let value: unknown = raw;
  switch (schema.type) {
    case "integer":
      if (!/^-?\d+$/.test(raw)) throw new SpecViolation(name, "must be an integer");
      value = Number(raw);
      break;
    case "number": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n))
        throw new SpecViolation(name, "must be a number");
      value = n;
      break;
    }
    case "boolean":
      if (raw !== "true" && raw !== "false") throw new SpecViolation(name, "must be true or false");
      value = raw === "true";
      break;
    default:
      break;
  }
  checkConstraints(schema, value, name);
  return value;
}

/** Reads and validates the query string of a request against the operation's query parameters. */
export function validateQuery(
  op: CompiledOperation,
  query: URLSearchParams,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const param of op.queryParams) {
    const values = query.getAll(param.name);
    if (values.length === 0) {
      if (param.required) throw new SpecViolation(param.name, "is required");
      if (param.schema.default !== undefined) out[param.name] = param.schema.default;
      continue;
    }
    // An array schema, or a `oneOf` with an array branch (a repeatable filter), takes repeated keys.
    const list =
      param.schema.type === "array"
        ? param.schema
        : values.length > 1
          ? param.schema.oneOf?.find((s) => s.type === "array")
          : undefined;
    if (list) {
      const items = list.items ?? {};
      out[param.name] = values.map((v) => coerceParameter({ ...param, schema: items }, v));
      continue;
    }
    if (values.length > 1) throw new SpecViolation(param.name, "must appear at most once");
    out[param.name] = coerceParameter(param, values[0] ?? "");
  }
  return out;
}

const typeName = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v;

/** Validates a JSON value against a resolved schema; throws a SpecViolation naming the field. */
export function validateValue(schema: Schema, value: unknown, field: string): void {
  if (schema.oneOf) {
    if (!schema.oneOf.some((s) => passes(s, value, field))) {
      throw new SpecViolation(field, "does not match any allowed shape");
    }
    return;
  }
  switch (schema.type) {
    case "object": {
      if (!isObj(value))
        throw new SpecViolation(field, `must be an object, not ${typeName(value)}`);
      const props = schema.properties ?? {};
      const prefix = field === "body" ? "" : `${field}.`;
      for (const key of schema.required ?? []) {
        if (value[key] === undefined) throw new SpecViolation(`${prefix}${key}`, "is required");
      }
      for (const [key, v] of Object.entries(value)) {
        const sub = props[key];
        if (sub) validateValue(sub, v, `${prefix}${key}`);
        else if (schema.additionalProperties === false) {
          throw new SpecViolation(`${prefix}${key}`, "is not an allowed field");
        } else if (isObj(schema.additionalProperties)) {
          validateValue(schema.additionalProperties, v, `${prefix}${key}`);
        }
      }
      return;
    }
    case "array": {
      if (!Array.isArray(value))
        throw new SpecViolation(field, `must be an array, not ${typeName(value)}`);
      if (schema.items)
        value.forEach((v, i) => validateValue(schema.items ?? {}, v, `${field}[${i}]`));
      return;
    }
    case "string":
      if (typeof value !== "string")
        throw new SpecViolation(field, `must be a string, not ${typeName(value)}`);
      break;
    case "boolean":
      if (typeof value !== "boolean")
        throw new SpecViolation(field, `must be a boolean, not ${typeName(value)}`);
      break;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        throw new SpecViolation(field, `must be an integer, not ${typeName(value)}`);
      }
      break;
    case "number":
      if (typeof value !== "number")
        throw new SpecViolation(field, `must be a number, not ${typeName(value)}`);
      break;
    default:
      break;
  }
  checkConstraints(schema, value, field);
}

function passes(schema: Schema, value: unknown, field: string): boolean {
  try {
    validateValue(schema, value, field);
    return true;
  } catch (e) {
    if (e instanceof SpecViolation) return false;
    throw e;
  }
}

/** Reads the values an enum schema allows (used by business rules that need the spec's region lists). */
export function enumOf(doc: Record<string, unknown>, schemaName: string): readonly string[] {
  const s = resolveSchema(doc, { $ref: `#/components/schemas/${schemaName}` });
  return (s.enum ?? []).filter((v): v is string => typeof v === "string");
}
