// The operations of both APIs as the clients publish them (each client's generated operation table):
// the `call` command, the logs filter flags and the per-operation help are all read from here, so an
// operation or a parameter added to a spec appears in the command line without code.
import { operationTable as logsTable } from "@api-clients/logs-client";
import { operationTable as managementTable } from "@api-clients/management-client";

/** The subset of JSON Schema the operation tables carry. */
export interface Schema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  format?: string;
  description?: string;
  items?: Schema;
  oneOf?: readonly Schema[];
  anyOf?: readonly Schema[];
  properties?: Readonly<Record<string, Schema>>;
  required?: readonly string[];
  additionalProperties?: boolean | Schema;
  nullable?: boolean;
}

/** One path or query parameter of an operation. */
export interface ParamSpec {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: Schema;
  description?: string;
}

/** One operation of either API. */
export interface OperationSpec {
  /** Which client sends it. */
  api: "logs" | "management";
  id: string;
  method: string;
  path: string;
  idempotent: boolean;
  params: readonly ParamSpec[];
  body: { required: boolean; schema: Schema } | undefined;
  /** Whether the table listed the parameters and body (older tables only give method and path). */
  described: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The path parameters named in a template such as `/v2/teams/{team_id}`. */
function templateParams(path: string): ParamSpec[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1] as string,
    in: "path" as const,
    required: true,
    schema: { type: "string" },
  }));
}

function readParams(raw: unknown, path: string): ParamSpec[] {
  // A table without `params` (an older client) still names its path parameters in the template.
  if (!Array.isArray(raw)) return templateParams(path);
  const params: ParamSpec[] = [];
  for (const p of raw) {
    if (!isObject(p) || typeof p["name"] !== "string") continue;
    if (p["in"] !== "path" && p["in"] !== "query") continue;
    params.push({
      name: p["name"],
      in: p["in"],
      required: p["required"] === true || p["in"] === "path",
      schema: isObject(p["schema"]) ? (p["schema"] as Schema) : {},
      ...(typeof p["description"] === "string" ? { description: p["description"] } : {}),
    });
  }
  return params;
}

/**
 * Reads one client's operation table defensively (it is generated, and older tables had fewer fields):
 * entries that do not look like operations are skipped.
 */
function readTable(api: OperationSpec["api"], table: unknown): OperationSpec[] {
  if (!isObject(table)) return [];
  const out: OperationSpec[] = [];
  for (const [id, entry] of Object.entries(table)) {
    if (
      !isObject(entry) ||
      typeof entry["method"] !== "string" ||
      typeof entry["path"] !== "string"
    )
      continue;
    const body = entry["body"];
    out.push({
      api,
      id,
      method: entry["method"].toUpperCase(),
      path: entry["path"],
      idempotent: entry["idempotent"] === true,
      params: readParams(entry["params"], entry["path"]),
      body: isObject(body)
        ? {
            required: body["required"] === true,
            schema: isObject(body["schema"]) ? (body["schema"] as Schema) : {},
          }
        : undefined,
      described: Array.isArray(entry["params"]),
    });
  }
  return out;
}

let cached: OperationSpec[] | undefined;

/** Every operation of both APIs, logs first, in the order of the specs. */
export function allOperations(): OperationSpec[] {
  return (cached ??= [
    ...readTable("logs", logsTable),
    ...readTable("management", managementTable),
  ]);
}

/** One operation by its operationId, or `undefined`. */
export function findOperation(id: string): OperationSpec | undefined {
  return allOperations().find((op) => op.id === id);
}

/** The types a schema allows, with `oneOf`/`anyOf` variants flattened. */
export function schemaTypes(schema: Schema): string[] {
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return [...new Set(variants.flatMap(schemaTypes))];
  if (Array.isArray(schema.type)) return [...schema.type];
  if (typeof schema.type === "string") return [schema.type];
  if (schema.enum) return [...new Set(schema.enum.map((v) => typeof v))];
  return [];
}

/**
 * How a parameter's value is given on the command line: its scalar schema, and whether the flag
 * repeats (a `type: array` schema, or a `oneOf` with an array variant).
 */
export function paramShape(schema: Schema): {
  scalar: Schema;
  repeatable: boolean;
  arrayOnly: boolean;
} {
  if (schema.type === "array")
    return { scalar: schema.items ?? {}, repeatable: true, arrayOnly: true };
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    const array = variants.find((v) => v.type === "array");
    const scalar = variants.find((v) => v.type !== "array") ?? array?.items ?? {};
    return { scalar, repeatable: array !== undefined, arrayOnly: false };
  }
  return { scalar: schema, repeatable: false, arrayOnly: false };
}

/** A one-line description of a schema for help texts: `integer 1..1000`, `one of: a, b`, … */
export function describeSchema(schema: Schema): string {
  const { scalar, repeatable } = paramShape(schema);
  const parts: string[] = [];
  if (scalar.enum && scalar.enum.length > 0) parts.push(`one of: ${scalar.enum.join(", ")}`);
  else {
    const types = schemaTypes(scalar).filter((t) => t !== "null");
    if (types.length > 0) parts.push(types.join(" | "));
  }
  if (scalar.minimum !== undefined || scalar.maximum !== undefined)
    parts.push(`${scalar.minimum ?? ""}..${scalar.maximum ?? ""}`);
  if (repeatable) parts.push("repeatable");
  return parts.join(", ");
}
