// The one reader of the OpenAPI documents: the only `$ref` resolver of the repository and the schema
// walker that compiles a spec into the `$ref`-free rules (`Schema`, `ParameterRule` in
// packages/core/src/internal/schema.ts) the clients and the emulator check at run time. Used by the
// codegen (scripts/generate.mjs) and the spec diff (scripts/lib/spec-diff.mjs).

/** The HTTP methods an OpenAPI path item can hold, in the order operations are listed. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Methods whose calls are safe to repeat without `x-idempotent`. */
const SAFE_METHODS = new Set(["get", "head", "options", "put", "delete", "trace"]);

/**
 * Follows local `$ref`s (`#/components/...`, JSON pointer escapes `~0` `~1`) inside `doc`; a cycle
 * resolves to `{}`, a dangling or non-local reference to `undefined`.
 */
export function resolveRef(doc, node, seen = new Set()) {
  if (!node || typeof node !== "object" || typeof node.$ref !== "string") return node;
  if (seen.has(node.$ref)) return {};
  seen.add(node.$ref);
  if (!node.$ref.startsWith("#/")) return undefined;
  const target = node.$ref
    .slice(2)
    .split("/")
    .map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((value, key) => value?.[key], doc);
  return resolveRef(doc, target, seen);
}

/** `resolveRef`, failing loudly where the spec points nowhere (codegen must never guess). */
function deref(doc, node, where) {
  const out = resolveRef(doc, node);
  if (out === undefined && node !== undefined) {
    throw new Error(`${where}: unresolved $ref ${JSON.stringify(node?.$ref)}`);
  }
  return out;
}

/** Schema keywords the compiled subset keeps as they are. */
const KEPT = [
  "type",
  "enum",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
  "nullable",
  "required",
  "default",
];
/**
 * Keywords the service checks and the emulator's tables keep, left out of the clients' tables
 * (`{ client: true }`): a string's length or pattern and an array's item count are the service's to
 * refuse (answered as a 400), so the clients' checker carries no code for them.
 */
export const SERVICE_ONLY = ["minLength", "maxLength", "pattern", "minItems", "maxItems"];
/** Keywords that carry rules the runtime checker does not implement: refused rather than dropped. */
const UNSUPPORTED = ["allOf", "anyOf", "not", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/**
 * Compiles a schema (or a `$ref` to one) into the `$ref`-free `Schema` subset: descriptions, examples,
 * `format` and `deprecated` are dropped; an `x-extensible-enum` (an open value set) compiles to no
 * `enum`, and to `known: [...]` only with `{ known: true }`; `default` only with `{ defaults: true }`;
 * {@link SERVICE_ONLY} keywords are dropped with `{ client: true }`.
 */
export function compileSchema(doc, node, opts = {}, where = "schema", depth = 0) {
  if (depth > 64) throw new Error(`${where}: schema nesting too deep (a $ref cycle?)`);
  const deref0 = deref(doc, node, where);
  if (!deref0 || typeof deref0 !== "object") return {};
  const { schema: s, anyRequired } = requiredAlternatives(deref0, where);
  for (const key of UNSUPPORTED) {
    if (s[key] !== undefined && s[key] !== false) {
      throw new Error(
        `${where}: \`${key}\` is not supported by the compiled rules; use oneOf/enum`,
      );
    }
  }
  if (s["x-extensible-enum"] !== undefined) {
    // Typed as `"a" | "b" | (string & {})` by the codegen: that needs a string schema and no `enum`.
    if (s.type !== "string" || s.enum !== undefined || !Array.isArray(s["x-extensible-enum"])) {
      throw new Error(
        `${where}: x-extensible-enum needs \`type: string\`, a list, and no \`enum\``,
      );
    }
  }
  const out = {};
  for (const key of KEPT) {
    if (s[key] === undefined) continue;
    if (key === "default" && !opts.defaults) continue;
    if (opts.client && SERVICE_ONLY.includes(key)) continue;
    if (key === "required" && (!Array.isArray(s.required) || s.required.length === 0)) continue;
    if (key === "nullable" && s.nullable !== true) continue;
    out[key] = s[key];
  }
  if (Array.isArray(s["x-extensible-enum"]) && opts.known) out.known = s["x-extensible-enum"];
  if (anyRequired !== undefined) out.anyRequired = anyRequired;
  const sub = (child, suffix) => compileSchema(doc, child, opts, `${where}${suffix}`, depth + 1);
  if (s.properties && typeof s.properties === "object") {
    out.properties = {};
    for (const [key, child] of Object.entries(s.properties)) {
      out.properties[key] = sub(child, `.${key}`);
    }
  }
  if (s.additionalProperties === false) out.additionalProperties = false;
  else if (s.additionalProperties && typeof s.additionalProperties === "object") {
    out.additionalProperties = sub(s.additionalProperties, ".*");
  }
  if (s.items !== undefined) out.items = sub(s.items, "[]");
  if (Array.isArray(s.oneOf)) out.oneOf = s.oneOf.map((child, i) => sub(child, `.oneOf[${i}]`));
  return out;
}

/**
 * The one `anyOf` the checker understands: alternatives that only list `required` fields ("one of
 * `database_name` and `name`"), alone or wrapped in `allOf`. An alternative may also say
 * `type: object` and restate the types of the fields it requires (`properties`, no other field): the
 * checker takes those types from the object's own `properties`, and openapi-typescript then types the
 * body as the object `&` a union of the alternatives, so a body with neither field does not compile.
 * Returns the schema without it, and the groups as `anyRequired`.
 */
function requiredAlternatives(s, where) {
  const onlyRequired = (alt) => {
    if (!alt || !Array.isArray(alt.required) || alt.required.length === 0) return false;
    const { required, type = "object", properties = {}, ...other } = alt;
    return (
      Object.keys(other).length === 0 &&
      type === "object" &&
      Object.keys(properties).every((key) => required.includes(key))
    );
  };
  const wrapped = Array.isArray(s.allOf) && s.allOf.length === 1 ? s.allOf[0] : undefined;
  const anyOf =
    s.anyOf ?? (wrapped && Object.keys(wrapped).length === 1 ? wrapped.anyOf : undefined);
  if (!Array.isArray(anyOf) || !anyOf.every(onlyRequired)) return { schema: s };
  if (s.anyOf !== undefined && s.allOf !== undefined) {
    throw new Error(`${where}: both anyOf and allOf; the compiled rules take one required-anyOf`);
  }
  const { anyOf: _anyOf, allOf: _allOf, ...rest } = s;
  return { schema: rest, anyRequired: anyOf.map((alt) => alt.required) };
}

/** The parameters of an operation: path-level ones, overridden by the operation's of the same name. */
function compileParams(doc, item, op, opts, where) {
  const byKey = new Map();
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = deref(doc, raw, where);
    if (p.in !== "path" && p.in !== "query") continue; // headers and cookies carry no input rules here
    byKey.set(`${p.in}:${p.name}`, {
      name: p.name,
      in: p.in,
      required: p.required === true || p.in === "path",
      schema: compileSchema(doc, p.schema, opts, `${where} ${p.in} ${p.name}`),
    });
  }
  return [...byKey.values()];
}

/** What a success (200) body is: the `"OK"` acknowledgement, a JSON array or a JSON object. */
function successShape(doc, op) {
  const media = resolveRef(doc, op.responses?.["200"])?.content?.["application/json"];
  const schema = resolveRef(doc, media?.schema);
  // An acknowledgement is a string (`"OK"` today; the reference types it as any string).
  if (schema?.type === "string") return "acknowledgement";
  return schema?.type === "array" ? "array" : "object";
}

/** The authentication an operation asks for, from its `security` (or the document's). */
function authOf(doc, op) {
  const schemes = doc.components?.securitySchemes ?? {};
  for (const requirement of op.security ?? doc.security ?? []) {
    for (const name of Object.keys(requirement ?? {})) {
      const scheme = resolveRef(doc, schemes[name]);
      const kind = scheme?.type === "http" ? String(scheme.scheme).toLowerCase() : "";
      if (kind === "bearer" || kind === "basic") return kind;
    }
  }
  return "none";
}

/**
 * Every operation of `doc`, in spec order, as `{ operationId, method, path, idempotent, success, auth,
 * irreversible, params, body?, alreadyApplied? }`: the path's and the operation's parameters merged and
 * compiled, `idempotent` from `x-idempotent` or a safe method, `irreversible` from `x-irreversible` (a
 * change its caller cannot undo: the CLI and the MCP server ask a person first), `alreadyApplied` from
 * `x-already-applied`.
 * `opts` is passed to {@link compileSchema}.
 */
export function compileOperations(doc, opts = {}) {
  const ops = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem, path);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (typeof op.operationId !== "string") throw new Error(`${where}: no operationId`);
      const compiled = {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        idempotent: op["x-idempotent"] === true || SAFE_METHODS.has(method),
        irreversible: op["x-irreversible"] === true,
        success: successShape(doc, op),
        auth: authOf(doc, op),
        params: compileParams(doc, item, op, opts, where),
      };
      const body = deref(doc, op.requestBody, where);
      if (body) {
        const schema = body.content?.["application/json"]?.schema;
        compiled.body = {
          required: body.required === true,
          schema: compileSchema(doc, schema, opts, `${where} body`),
        };
      }
      if (typeof op["x-already-applied"] === "string") {
        compiled.alreadyApplied = op["x-already-applied"];
      }
      ops.push(compiled);
    }
  }
  return ops;
}

/**
 * The value lists of the document's component schemas, by name: a closed `enum` of strings, or the
 * known values of an `x-extensible-enum`, each with whether the set is open.
 */
export function componentValueSets(doc) {
  const out = {};
  for (const [name, raw] of Object.entries(doc.components?.schemas ?? {})) {
    const s = resolveRef(doc, raw);
    if (Array.isArray(s?.["x-extensible-enum"])) {
      out[name] = { values: s["x-extensible-enum"], open: true };
    } else if (Array.isArray(s?.enum) && s.enum.every((v) => typeof v === "string")) {
      out[name] = { values: s.enum, open: false };
    }
  }
  return out;
}

/**
 * The names of the properties `doc` marks `x-secret: true` (a password or token of a result), sorted,
 * each with where it is marked (`Schema.property`). A secret is a string; anything else marked is an
 * error. The MCP server masks a field of any of these names at any depth of a result.
 */
export function secretProperties(doc) {
  const where = new Map();
  const visit = (node, at, depth) => {
    if (depth > 64 || node === null || typeof node !== "object") return;
    if (Array.isArray(node))
      return node.forEach((child, i) => visit(child, `${at}[${i}]`, depth + 1));
    if (node.properties && typeof node.properties === "object") {
      for (const [name, prop] of Object.entries(node.properties)) {
        if (prop?.["x-secret"] === undefined) continue;
        if (prop["x-secret"] !== true || prop.type !== "string") {
          throw new Error(`${at}.${name}: x-secret is true on a string property, nothing else`);
        }
        where.set(name, [...(where.get(name) ?? []), `${at}.${name}`]);
      }
    }
    for (const [key, child] of Object.entries(node))
      visit(child, at === "" ? key : `${at}/${key}`, depth + 1);
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    visit(schema, name, 0);
  for (const [path, item] of Object.entries(doc.paths ?? {})) visit(item, path, 0);
  return [...where.keys()].sort().map((name) => ({ name, where: where.get(name) }));
}
