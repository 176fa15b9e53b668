// The command line's operation table (packages/cli/src/generated/operations.ts), emitted by
// scripts/generate.mjs from both specs: every operation with its summary and description, and every
// input (path and query parameters, and the top-level fields of a JSON body) with the spec's
// description, its type, its closed or known values, whether it is required or repeats, and the groups
// of body fields of which one must be given. The rules come from the one spec compiler
// (scripts/lib/openapi.mjs); the command line reads values with core's checker and the table's `schema`.
import { compileOperations, resolveRef } from "./openapi.mjs";

/** A description on one line (the spec folds long ones; help texts wrap them again). */
const oneLine = (text) =>
  typeof text === "string" && text.trim() !== "" ? text.replace(/\s+/g, " ").trim() : undefined;

/** The schema of one value of an input that may repeat (an array, or a `oneOf` with an array). */
function shape(compiled) {
  if (compiled.type === "array") return { scalar: compiled.items ?? {}, repeatable: true };
  if (Array.isArray(compiled.oneOf)) {
    const list = compiled.oneOf.find((v) => v.type === "array");
    const scalar = compiled.oneOf.find((v) => v.type !== "array") ?? list?.items ?? {};
    return { scalar, repeatable: list !== undefined };
  }
  return { scalar: compiled, repeatable: false };
}

/** The description of a parameter or property: its own, else its schema's (or its items'). */
function describe(doc, node, schema) {
  const s = resolveRef(doc, schema);
  return (
    oneLine(node?.description) ??
    oneLine(s?.description) ??
    oneLine(resolveRef(doc, s?.items)?.description)
  );
}

/** The compiled rule without the `known` lists (the row's `values` carry them; the clients ignore them). */
function rule(compiled) {
  if (Array.isArray(compiled)) return compiled.map(rule);
  if (compiled === null || typeof compiled !== "object") return compiled;
  const out = {};
  for (const [key, value] of Object.entries(compiled)) if (key !== "known") out[key] = rule(value);
  return out;
}

/** One input row: what a flag needs to read, check and explain a value. */
function input(doc, { name, where, required, compiled, node, schema }) {
  const { scalar, repeatable } = shape(compiled);
  const row = { name, in: where, required };
  const description = describe(doc, node, schema);
  if (description !== undefined) row.description = description;
  if (node?.deprecated === true || resolveRef(doc, schema)?.deprecated === true)
    row.deprecated = true;
  row.type = scalar.type ?? "any";
  row.repeatable = repeatable;
  const values = scalar.enum ?? scalar.known;
  if (Array.isArray(values)) row.values = values.map(String);
  if (scalar.known !== undefined) row.open = true;
  row.schema = rule(compiled);
  return row;
}

/** The spec's own parameter object of `name` in `where` (the operation's wins over the path's). */
export function rawParam(doc, item, op, name, where) {
  for (const list of [op.parameters ?? [], item.parameters ?? []]) {
    for (const raw of list) {
      const p = resolveRef(doc, raw);
      if (p?.name === name && p?.in === where) return p;
    }
  }
  return undefined;
}

/** The operations of one spec as rows of the command-line table. */
function rows(api, doc) {
  const out = [];
  for (const op of compileOperations(doc, { known: true })) {
    const item = resolveRef(doc, doc.paths[op.path]);
    const spec = item[op.method.toLowerCase()];
    const inputs = op.params.map((p) => {
      const node = rawParam(doc, item, spec, p.name, p.in);
      return input(doc, {
        name: p.name,
        where: p.in,
        required: p.required,
        compiled: p.schema,
        node,
        schema: node?.schema,
      });
    });
    const row = {
      api,
      id: op.operationId,
      method: op.method,
      path: op.path,
      summary: oneLine(spec.summary) ?? op.operationId,
    };
    const description = oneLine(spec.description);
    if (description !== undefined) row.description = description;
    row.idempotent = op.idempotent;
    row.irreversible = op.irreversible;
    row.success = op.success;
    if (op.body !== undefined) {
      const rawBody = resolveRef(
        doc,
        resolveRef(doc, spec.requestBody)?.content?.["application/json"]?.schema,
      );
      const required = new Set(op.body.schema.required ?? []);
      for (const [name, compiled] of Object.entries(op.body.schema.properties ?? {})) {
        const node = resolveRef(doc, rawBody?.properties?.[name]);
        inputs.push(
          input(doc, {
            name,
            where: "body",
            required: required.has(name),
            compiled,
            node,
            schema: rawBody?.properties?.[name],
          }),
        );
      }
      row.body = { required: op.body.required };
      if (op.body.schema.anyRequired !== undefined) row.body.oneOf = op.body.schema.anyRequired;
      row.body.schema = rule(op.body.schema);
    }
    row.inputs = inputs;
    out.push(row);
  }
  return out;
}

/**
 * The text of packages/cli/src/generated/operations.ts from the parsed specs; `literal` writes a JS
 * literal of a value, and writes a `Code`'s text as it is (scripts/generate.mjs's).
 */
export function cliTable(docs, literal, Code) {
  const all = [...rows("logs", docs.logs), ...rows("management", docs.management)];
  // An input list several operations share (`listLogs` and `listEvents`) is written once.
  const uses = new Map();
  for (const row of all) uses.set(literal(row.inputs), (uses.get(literal(row.inputs)) ?? 0) + 1);
  const shared = new Map(
    [...uses]
      .filter(([text, n]) => n > 1 && text !== "[]")
      .map(([text], i) => [text, `inputs${i}`]),
  );
  const table = all.map((row) => {
    const name = shared.get(literal(row.inputs));
    return `  ${literal(name === undefined ? row : { ...row, inputs: new Code(name) })},`;
  });
  return (
    `import type { Schema } from "@api-clients/core/internal";\n\n` +
    `/** One input of an operation on the command line: a path or query parameter, or a field of the JSON body. */\n` +
    `export interface CliInput {\n` +
    `  readonly name: string;\n` +
    `  readonly in: "path" | "query" | "body";\n` +
    `  readonly required: boolean;\n` +
    `  /** The spec's description. */\n  readonly description?: string;\n` +
    `  /** Marked deprecated by the spec: still accepted, left out of the help. */\n  readonly deprecated?: boolean;\n` +
    `  /** The JSON type of one value (of each value, when it repeats); \`any\` when the spec names none. */\n` +
    `  readonly type: "string" | "integer" | "number" | "boolean" | "object" | "array" | "any";\n` +
    `  /** Whether it takes several values (an array, or a \`oneOf\` with an array). */\n  readonly repeatable: boolean;\n` +
    `  /** Its closed set of values (\`enum\`), or the values known today of an open set. */\n  readonly values?: readonly string[];\n` +
    `  /** The set is open (\`x-extensible-enum\`): any other string is sent as given. */\n  readonly open?: boolean;\n` +
    `  /** Its rule, compiled from the spec, for core's checker. */\n  readonly schema: Schema;\n` +
    `}\n\n` +
    `/** One operation of either API, as the command line reaches it. */\n` +
    `export interface CliOperation {\n` +
    `  /** Which client sends it. */\n  readonly api: "logs" | "management";\n` +
    `  readonly id: string;\n  readonly method: string;\n` +
    `  /** The spec's path template, e.g. \`/v2/redis/database/{id}\`. */\n  readonly path: string;\n` +
    `  readonly summary: string;\n  readonly description?: string;\n` +
    `  /** Whether repeating the call is safe (the clients retry it on 5xx and timeouts). */\n  readonly idempotent: boolean;\n` +
    `  /** The spec's \`x-irreversible\`: it changes or destroys what the caller cannot undo, so the command line asks first. */\n  readonly irreversible: boolean;\n` +
    `  /** What a success body is. */\n  readonly success: "acknowledgement" | "array" | "object";\n` +
    `  /** Its parameters, then the top-level fields of its JSON body. */\n  readonly inputs: readonly CliInput[];\n` +
    `  /** Its JSON body: whether it is required, the groups of fields one of which must be given, its rule. */\n` +
    `  readonly body?: {\n    readonly required: boolean;\n    readonly oneOf?: readonly (readonly string[])[];\n    readonly schema: Schema;\n  };\n` +
    `}\n\n` +
    [...shared]
      .map(([text, name]) => `const ${name}: readonly CliInput[] = ${text};\n\n`)
      .join("") +
    `/** Every operation of the logs and management specs, in spec order. */\n` +
    `export const operations: readonly CliOperation[] = [\n${table.join("\n")}\n];\n`
  );
}
