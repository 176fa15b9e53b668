// The shape a spec promises for an operation's 200 answer, read from the spec document itself, and a
// check of a value against it (the OpenAPI 3.0 subset our specs use: $ref, type, nullable, properties,
// required, items, enum, x-extensible-enum, oneOf/anyOf/allOf). Open value sets accept any string;
// unknown fields pass (records are `additionalProperties: true`).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

type Schema = Record<string, unknown>;

/** One operation of a spec: what the contract tests call and check. */
export interface SpecOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** Schema of the `200` answer's JSON body. */
  readonly success: Schema;
}

const SPECS = fileURLToPath(new URL("../../../../specs/", import.meta.url));

/** Path of a spec file (`management` or `logs`). */
export const specFile = (name: "management" | "logs"): string => `${SPECS}${name}.openapi.yaml`;

/** The operations of a spec, in document order, and a checker bound to its components. */
export function loadSpec(name: "management" | "logs"): {
  operations: SpecOperation[];
  problems: (schema: Schema, value: unknown) => string[];
} {
  const doc = parse(readFileSync(specFile(name), "utf8")) as Schema;
  const resolve = (node: unknown): Schema => {
    let n = node as Schema;
    for (let i = 0; i < 20 && typeof n?.["$ref"] === "string"; i++) {
      const parts = (n["$ref"] as string).replace(/^#\//, "").split("/");
      n = parts.reduce<unknown>((o, k) => (o as Schema)[k], doc) as Schema;
    }
    return n;
  };
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(doc["paths"] as Record<string, Schema>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const o = op as Schema;
      const ok = resolve((o["responses"] as Schema)["200"]);
      const success = resolve(((ok["content"] as Schema)["application/json"] as Schema)["schema"]);
      operations.push({
        operationId: o["operationId"] as string,
        method: method.toUpperCase(),
        path,
        success,
      });
    }
  }

  const problems = (schema: Schema, value: unknown, at = "body"): string[] => {
    const s = resolve(schema);
    if (value === null) return s["nullable"] === true ? [] : [`${at}: is null`];
    if (Array.isArray(s["allOf"])) {
      return (s["allOf"] as Schema[]).flatMap((sub) => problems(sub, value, at));
    }
    const choices = (s["oneOf"] ?? s["anyOf"]) as Schema[] | undefined;
    if (choices) {
      return choices.some((sub) => problems(sub, value, at).length === 0)
        ? []
        : [`${at}: matches none of its ${choices.length} forms`];
    }
    const type = s["type"];
    const is = (ok: boolean, what: string): string[] =>
      ok ? [] : [`${at}: ${JSON.stringify(value)?.slice(0, 60)} is not ${what}`];
    switch (type) {
      case "string": {
        const bad = is(typeof value === "string", "a string");
        if (bad.length > 0 || !Array.isArray(s["enum"])) return bad;
        return is((s["enum"] as unknown[]).includes(value), `one of ${String(s["enum"])}`);
      }
      case "integer":
        return is(Number.isInteger(value), "an integer");
      case "number":
        return is(typeof value === "number" && Number.isFinite(value), "a number");
      case "boolean":
        return is(typeof value === "boolean", "a boolean");
      case "array": {
        const bad = is(Array.isArray(value), "an array");
        if (bad.length > 0 || s["items"] === undefined) return bad;
        return (value as unknown[]).flatMap((v, i) =>
          problems(s["items"] as Schema, v, `${at}[${i}]`),
        );
      }
      case "object": {
        const bad = is(typeof value === "object" && !Array.isArray(value), "an object");
        if (bad.length > 0) return bad;
        const v = value as Record<string, unknown>;
        const out: string[] = [];
        for (const k of (s["required"] as string[] | undefined) ?? []) {
          if (!(k in v)) out.push(`${at}.${k}: is required`);
        }
        for (const [k, sub] of Object.entries((s["properties"] as Schema | undefined) ?? {})) {
          if (k in v) out.push(...problems(sub as Schema, v[k], `${at}.${k}`));
        }
        return out;
      }
      default:
        return [];
    }
  };
  return { operations, problems: (schema, value) => problems(schema, value) };
}
