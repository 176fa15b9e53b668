// The MCP server's tool table (packages/mcp/src/generated/tools.ts), emitted by scripts/generate.mjs
// from both specs: one tool per operation, with its name, toolset (the operation's tag), description,
// JSON Schema of its arguments (path and query parameters by name, the JSON body as `body`; never a
// top-level `anyOf`/`oneOf`), JSON Schema of its structured result, and what the server derives its
// annotations from (method, `idempotent`, `irreversible`). The operations, their retry safety and their
// irreversibility come from the one spec compiler (scripts/lib/openapi.mjs); a new operation in a spec
// becomes a tool with no hand edit. The names of the secret fields (`x-secret: true`) come with it: a new
// secret field in a spec is masked with no hand edit either.
import { rawParam } from "./cli-table.mjs";
import { compileOperations, resolveRef, secretProperties } from "./openapi.mjs";

/** A description on one line (the spec folds long ones). */
const oneLine = (text) =>
  typeof text === "string" && text.trim() !== "" ? text.replace(/\s+/g, " ").trim() : undefined;

/** Words of operationIds kept whole in tool names (`getQStashIPv4` → `get_qstash_ipv4`). */
const WORDS = { QStash: "Qstash", IPv4: "Ipv4" };

/** `resetDatabasePassword` → `reset_database_password` (MCP clients cap names at 60–64 characters). */
export const toolName = (operationId) =>
  Object.entries(WORDS)
    .reduce((id, [word, as]) => id.replaceAll(word, as), operationId)
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();

/**
 * A property's description, short: `tools/list` of every tool must stay under 64 kB. Up to 120
 * characters as written, else its first sentence (up to 200), else its first 117 characters and `…`.
 * A tool's own description is kept whole.
 */
function brief(text) {
  if (text === undefined || text.length <= 120) return text;
  const first = /^(.+?[.])\s/.exec(text)?.[1];
  return first !== undefined && first.length <= 200 ? first : `${text.slice(0, 117)}…`;
}

/** Longest tool name some MCP clients accept. */
export const MAX_TOOL_NAME = 60;

/**
 * The groups of an `anyOf` (alone or wrapped in a one-element `allOf`) whose alternatives only list
 * `required` fields ("one of `database_name` and `name`"); JSON Schema clients reject it at the top
 * of an input schema, so it becomes a sentence of the description (the clients check it before sending).
 */
function requiredGroups(s) {
  const onlyRequired = (alt) =>
    alt && Object.keys(alt).length === 1 && Array.isArray(alt.required) && alt.required.length > 0;
  const wrapped = Array.isArray(s.allOf) && s.allOf.length === 1 ? s.allOf[0] : undefined;
  const anyOf =
    s.anyOf ?? (wrapped && Object.keys(wrapped).length === 1 ? wrapped.anyOf : undefined);
  if (!Array.isArray(anyOf) || !anyOf.every(onlyRequired)) return undefined;
  return anyOf.map((alt) => alt.required);
}

/** JSON Schema keywords kept as the spec writes them. */
const KEPT = [
  "enum",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "default",
];

/**
 * A spec schema as JSON Schema (draft 2020-12 subset): `$ref`s resolved, `nullable` as a `"null"`
 * type, an `x-extensible-enum` as its known values in the description (other values are accepted),
 * descriptions on one line (only with `describe`), examples and formats dropped.
 */
function jsonSchema(doc, node, { describe }, depth = 0) {
  if (depth > 32) return {};
  const s = resolveRef(doc, node);
  if (!s || typeof s !== "object") return {};
  const out = {};
  const notes = [];
  if (describe) {
    const d = brief(oneLine(s.description));
    if (d !== undefined) notes.push(d);
  }
  if (typeof s.type === "string") out.type = s.nullable === true ? [s.type, "null"] : s.type;
  for (const key of KEPT) if (s[key] !== undefined) out[key] = s[key];
  if (out.enum && s.nullable === true && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (describe && Array.isArray(s["x-extensible-enum"])) {
    notes.push(`Known values: ${s["x-extensible-enum"].join(", ")} (others are accepted).`);
  }
  const groups = requiredGroups(s);
  if (groups && describe) {
    notes.push(`Give at least one of: ${groups.map((g) => g.join(" + ")).join(", ")}.`);
  }
  const sub = (child) => jsonSchema(doc, child, { describe }, depth + 1);
  if (s.properties && typeof s.properties === "object") {
    out.properties = {};
    for (const [key, child] of Object.entries(s.properties)) out.properties[key] = sub(child);
    if (Array.isArray(s.required) && s.required.length > 0) out.required = s.required;
  }
  if (s.additionalProperties && typeof s.additionalProperties === "object") {
    out.additionalProperties = sub(s.additionalProperties);
  }
  if (s.items !== undefined) out.items = sub(s.items);
  if (Array.isArray(s.oneOf)) out.oneOf = s.oneOf.map(sub);
  if (notes.length > 0) out.description = notes.join(" ");
  return out;
}

/**
 * The shape of a result as an output schema, kept small (`tools/list` of the read tools must stay
 * under 32 kB; with the fields' types it was over): the names of the top-level fields (of each item,
 * for a list), each any value; no `required` (a field selection or a summary leaves fields out).
 */
function resultSchema(doc, node, depth = 0) {
  const s = resolveRef(doc, node);
  if (!s || typeof s !== "object" || depth > 0) return {};
  const out = {};
  if (typeof s.type === "string") out.type = s.nullable === true ? [s.type, "null"] : s.type;
  if (s.properties && typeof s.properties === "object") {
    out.properties = {};
    for (const [key, child] of Object.entries(s.properties)) {
      out.properties[key] = resultSchema(doc, child, depth + 1);
    }
  }
  if (s.items !== undefined) {
    const items = resolveRef(doc, s.items);
    out.items = items?.properties ? resultSchema(doc, items, 0) : resultSchema(doc, items, 1);
  }
  return out;
}

/**
 * A parameter that takes one value or a list (`oneOf: [x, array of x]`) as a list: the same request
 * either way, and no union for the clients that handle none.
 */
function listOrOne(schema) {
  const alts = schema.oneOf;
  if (!Array.isArray(alts) || alts.length !== 2) return schema;
  const list = alts.find((a) => a.type === "array");
  const one = alts.find((a) => a.type !== "array");
  if (list === undefined || one === undefined || JSON.stringify(list.items) !== JSON.stringify(one))
    return schema;
  const { oneOf: _oneOf, ...rest } = schema;
  return { ...rest, ...list };
}

/** The tools of one spec. */
function tools(api, doc) {
  const out = [];
  for (const op of compileOperations(doc)) {
    const item = resolveRef(doc, doc.paths[op.path]);
    const spec = item[op.method.toLowerCase()];
    const name = toolName(op.operationId);
    if (name.length > MAX_TOOL_NAME) {
      throw new Error(`${op.operationId}: tool name ${name} is over ${MAX_TOOL_NAME} characters`);
    }
    const toolset =
      Array.isArray(spec.tags) && typeof spec.tags[0] === "string" ? spec.tags[0] : api;
    const properties = {};
    const required = [];
    const inputs = [];
    for (const p of op.params) {
      const raw = rawParam(doc, item, spec, p.name, p.in);
      const schema = listOrOne(jsonSchema(doc, raw?.schema, { describe: true }));
      const d = brief(oneLine(raw?.description));
      if (d !== undefined) schema.description = d;
      properties[p.name] = schema;
      if (p.required) required.push(p.name);
      inputs.push({ name: p.name, in: p.in });
    }
    const body = resolveRef(doc, spec.requestBody);
    if (body) {
      if ("body" in properties) throw new Error(`${op.operationId}: a parameter is named "body"`);
      const schema = jsonSchema(doc, body.content?.["application/json"]?.schema, {
        describe: true,
      });
      schema.description = [
        oneLine(body.description) ?? "The JSON request body.",
        schema.description,
      ]
        .filter(Boolean)
        .join(" ");
      properties.body = schema;
      if (body.required === true) required.push("body");
    }
    const inputSchema = { type: "object", properties };
    if (required.length > 0) inputSchema.required = required;
    const row = {
      name,
      api,
      operationId: op.operationId,
      toolset,
      title: oneLine(spec.summary) ?? op.operationId,
      description: oneLine(spec.description) ?? oneLine(spec.summary) ?? op.operationId,
      method: op.method,
      path: op.path,
      idempotent: op.idempotent,
      irreversible: op.irreversible,
      success: op.success,
      inputs,
      body: body !== undefined,
      inputSchema,
    };
    if (spec.deprecated === true) row.deprecated = true;
    const media = resolveRef(doc, spec.responses?.["200"])?.content?.["application/json"];
    if (op.success !== "acknowledgement" && media?.schema !== undefined) {
      row.result = resultSchema(doc, media.schema);
    }
    out.push(row);
  }
  return out;
}

/**
 * The text of packages/mcp/src/generated/tools.ts from the parsed specs; `literal` writes a JS
 * literal of a value (scripts/generate.mjs's).
 */
export function mcpTable(docs, literal) {
  const all = [...tools("logs", docs.logs), ...tools("management", docs.management)];
  const names = new Set();
  for (const row of all) {
    if (names.has(row.name)) throw new Error(`two operations make the tool ${row.name}`);
    names.add(row.name);
  }
  const secrets = [
    ...new Set(
      [...secretProperties(docs.logs), ...secretProperties(docs.management)].map((p) => p.name),
    ),
  ].sort();
  return (
    `import type { ToolSpec } from "../internal/tool-spec.js";\n\n` +
    `/** One tool per operation of the logs and management specs, in spec order. */\n` +
    `export const toolSpecs: readonly ToolSpec[] = [\n${all.map((row) => `  ${literal(row)},`).join("\n")}\n];\n\n` +
    `/** The names of the properties the specs mark \`x-secret: true\`: masked in every result. */\n` +
    `export const secretFields: readonly string[] = ${literal(secrets)};\n`
  );
}
