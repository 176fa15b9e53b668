// The shape of a client's generated operation table, and the types of `client.request()` derived from
// openapi-typescript's `operations`. Public (inside semver): the clients' declarations use them.
import type { RequestOptions } from "./options.js";

/** The subset of JSON Schema the specs use, `$ref`-free, as codegen emits it. */
export interface Schema {
  readonly type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  /** A closed value set: anything else is refused. (An `x-extensible-enum` compiles to no `enum`.) */
  readonly enum?: readonly unknown[];
  /** The known values of an `x-extensible-enum` (emulator tables only); other values pass. */
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
  /** At least one of these groups of fields must be present (an `anyOf` of `required` lists). */
  readonly anyRequired?: readonly (readonly string[])[];
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

/** One row of a client's generated operation table (`operationTable`). */
export interface OperationSpec extends OperationRules {
  readonly method: string;
  /** The spec's path template, e.g. `/v2/redis/database/{id}`. */
  readonly path: string;
  /** Whether repeating the call is safe (a safe method, or `x-idempotent: true`). */
  readonly idempotent: boolean;
  /** What a 2xx body is: an acknowledgement (`"OK"`), a JSON array or a JSON object. */
  readonly success: "acknowledgement" | "array" | "object";
  /**
   * From `x-already-applied`: the text (matched case-insensitively, in a 4xx answer only) of the
   * error the service answers when the state already matches the request (e.g. `already enabled`);
   * `request()` and the methods then resolve, since the call had its effect.
   */
  readonly alreadyApplied?: string;
}

type Absent<T> = [T] extends [never] ? true : [T] extends [undefined] ? true : false;
type Params<Op> = Op extends { parameters: infer P } ? P : never;
type PathOf<Op> = Params<Op> extends { path?: infer P } ? P : never;
type QueryOf<Op> = Params<Op> extends { query?: infer Q } ? Q : never;
type JsonOf<Content> = Content extends { content: { "application/json": infer Body } }
  ? Body
  : never;
type BodyOf<Op> = Op extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
type BodyRequired<Op> = Op extends { requestBody: unknown } ? true : false;
type SuccessOf<Op> = Op extends { responses: infer R }
  ? R extends { 200: infer S }
    ? JsonOf<S>
    : R extends { 201: infer S }
      ? JsonOf<S>
      : never
  : never;

/**
 * The path parameters, query and JSON body of one operation (an entry of openapi-typescript's
 * `operations`), as the spec declares them: a required path parameter or body is required here too.
 */
export type OperationInput<Op> = (Absent<PathOf<Op>> extends true
  ? { path?: undefined }
  : { path: NonNullable<PathOf<Op>> }) &
  (Absent<QueryOf<Op>> extends true ? { query?: undefined } : { query?: QueryOf<Op> | undefined }) &
  (Absent<BodyOf<Op>> extends true
    ? { body?: undefined }
    : BodyRequired<Op> extends true
      ? { body: BodyOf<Op> }
      : { body?: BodyOf<Op> | undefined });

/**
 * What `request()` resolves to for one operation: its parsed JSON success body, or `void` for an
 * acknowledgement (an operation whose success body is a string such as `"OK"`).
 */
export type OperationResult<Op> = [SuccessOf<Op>] extends [string] ? void : SuccessOf<Op>;

/** The arguments of `request()` after the operationId: the input may be left out when nothing in it is required. */
export type RequestArguments<Op> =
  {} extends OperationInput<Op>
    ? [input?: OperationInput<Op>, options?: RequestOptions]
    : [input: OperationInput<Op>, options?: RequestOptions];

/**
 * A client's `request()`: sends any operation of the spec by its operationId through the client's
 * one request path (checks, auth, retries, timeouts) and resolves to the parsed success body, or
 * throws the typed error (`ValidationError` before sending, `ApiError` subclasses, `ConnectionError`,
 * `TimeoutError`, `AbortError`, `InvalidResponseError` for a 2xx body that is not what the spec promises).
 *
 * @example
 * const db = await m.request("getDatabase", { path: { id: "db_1" } });
 */
export type RequestFunction<Ops> = <Id extends keyof Ops & string>(
  operationId: Id,
  ...args: RequestArguments<Ops[Id]>
) => Promise<OperationResult<Ops[Id]>>;
