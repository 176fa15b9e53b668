// Reading our OpenAPI specs as plain data, for the tests that hold them to the fact sheet
// (current-reference.test.ts, live-reference.test.ts).
import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** A schema node as the specs write it (only the keywords the tests read). */
export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  "x-extensible-enum"?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  deprecated?: boolean;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
  additionalProperties?: unknown;
};
export type Parameter = Schema & {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
  style?: string;
};
export type Operation = Record<string, unknown> & {
  operationId: string;
  description: string;
  parameters?: Parameter[];
  requestBody?: Schema;
  responses: Record<string, Schema>;
  "x-idempotent"?: boolean;
};
export type Spec = {
  paths: Record<string, Record<string, Operation> & { parameters?: Parameter[] }>;
  components: Record<string, Record<string, Schema>>;
};

/** Parses `specs/<name>.openapi.yaml`. */
export const load = (name: "logs" | "management"): Spec =>
  parse(readFileSync(new URL(`../../../specs/${name}.openapi.yaml`, import.meta.url), "utf8"));

/** Follows `$ref`s (`#/components/<section>/<name>`) to the node they name. */
export function deref(spec: Spec, node: Schema): Schema {
  if (!node.$ref) return node;
  const [, , section, name] = node.$ref.split("/");
  return deref(spec, spec.components[section!]![name!]!);
}
