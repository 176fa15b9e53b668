// The one runtime checker of the spec's rules, shared by the clients (typed values, before a request)
// and the emulator (wire strings, on arrival). Codegen (scripts/lib/openapi.mjs) compiles each
// operation's parameters and body into the `$ref`-free `Schema` subset below; nothing here reads a spec.

/** The subset of JSON Schema the specs use, `$ref`-free, as codegen emits it. */
export interface Schema {
  readonly type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  /** A closed value set: anything else is refused. (An `x-extensible-enum` compiles to no `enum`.) */
  readonly enum?: readonly unknown[];
  /** The known values of an `x-extensible-enum` (open: other values pass); only in the emulator's tables. */
  readonly known?: readonly string[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly nullable?: boolean;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: boolean | Schema;
  readonly items?: Schema;
  readonly oneOf?: readonly Schema[];
  readonly default?: unknown;
}

/** A path or query parameter of an operation. */
export interface ParameterRule {
  readonly name: string;
  readonly in: "path" | "query";
  readonly required: boolean;
  readonly schema: Schema;
}

/** Everything an operation's request must satisfy, compiled from the spec. */
export interface OperationRules {
  readonly params: readonly ParameterRule[];
  readonly body?: { readonly required: boolean; readonly schema: Schema };
}
