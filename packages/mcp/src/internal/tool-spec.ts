// The shape of one row of the generated tool table (src/generated/tools.ts, written by
// scripts/generate.mjs from the specs through scripts/lib/mcp-table.mjs).

/** A JSON Schema object, as the generator writes it. */
export type JsonSchema = { readonly [key: string]: unknown };

/** One operation of either API as an MCP tool. */
export interface ToolSpec {
  /** The tool's name: the operationId in snake_case (at most 60 characters). */
  readonly name: string;
  /** Which client sends it. */
  readonly api: "logs" | "management";
  readonly operationId: string;
  /** The operation's first tag in the spec (`logs`, `databases`, `backups`, …): `--toolsets` picks them. */
  readonly toolset: string;
  /** The spec's summary. */
  readonly title: string;
  /** The spec's description. */
  readonly description: string;
  readonly method: string;
  /** The spec's path template, e.g. `/v2/redis/database/{id}`. */
  readonly path: string;
  /** Whether repeating the call is safe (`x-idempotent`, or a safe method). */
  readonly idempotent: boolean;
  /** Whether the caller cannot undo it (`x-irreversible`): a person confirms each call. */
  readonly irreversible: boolean;
  /** What a success body is. */
  readonly success: "acknowledgement" | "array" | "object";
  /** The path and query parameters, by the name the arguments use. */
  readonly inputs: readonly { readonly name: string; readonly in: "path" | "query" }[];
  /** Whether it takes a JSON body (the `body` argument). */
  readonly body: boolean;
  /** Marked deprecated by the spec. */
  readonly deprecated?: boolean;
  /** The JSON Schema of the arguments (an object; never a top-level `anyOf`/`oneOf`). */
  readonly inputSchema: JsonSchema;
  /** The shape of the success body, where the spec has a response schema. */
  readonly result?: JsonSchema;
}
