import type { RequestOptions } from "@api-clients/core";
import type { Api } from "@api-clients/core/internal";
import type { OperationId } from "../generated/operations.js";
import type { components, operations, paths } from "../generated/schema.js";

/** What every resource module shares: the API's one request path. */
export type Context = Api<paths>;

type Operation<Id extends OperationId> = operations[Id];
type Success<Id extends OperationId> = Operation<Id>["responses"][200];

/** Operations whose success is the bare acknowledgement `"OK"`. */
export type AcknowledgedOperationId = {
  [Id in OperationId]: Success<Id> extends components["responses"]["Ok"] ? Id : never;
}[OperationId];

/** Operations whose success is a JSON record or array. */
export type RecordOperationId = Exclude<OperationId, AcknowledgedOperationId>;

/** The JSON document a record operation resolves to. */
export type Result<Id extends RecordOperationId> =
  Success<Id> extends { content: { "application/json": infer Body } } ? Body : never;

type Absent<T> = [T] extends [never] ? true : [T] extends [undefined] ? true : false;
type PathOf<Id extends OperationId> = Operation<Id>["parameters"]["path"];
type QueryOf<Id extends OperationId> = Operation<Id>["parameters"]["query"];
type JsonBody<RequestBody> = [RequestBody] extends [never]
  ? never
  : RequestBody extends { content: { "application/json": infer Body } }
    ? Body
    : never;
type BodyOf<Id extends OperationId> = JsonBody<NonNullable<Operation<Id>["requestBody"]>>;

/**
 * The path parameters, query and JSON body of one operation, as the spec declares them: required path
 * parameters and bodies are required here too, so a method that leaves one out does not compile.
 */
export type Input<Id extends OperationId> = (Absent<PathOf<Id>> extends true
  ? { path?: undefined }
  : { path: NonNullable<PathOf<Id>> }) &
  (Absent<QueryOf<Id>> extends true ? { query?: undefined } : { query?: QueryOf<Id> | undefined }) &
  (Absent<BodyOf<Id>> extends true ? { body?: undefined } : { body: BodyOf<Id> });

/**
 * Sends one record operation through the API's request path; the result has the shape the spec gives
 * it (an array or an object), anything else is an `InvalidResponseError`, never a silently wrong value.
 */
export function send<Id extends RecordOperationId>(
  ctx: Context,
  id: Id,
  input: Input<Id>,
  options: RequestOptions | undefined,
): Promise<Result<Id>> {
  return ctx.call(id, input, options) as Promise<Result<Id>>;
}

/** Sends one operation whose success is the acknowledgement `"OK"` (JSON string, plain text or empty). */
export async function acknowledge<Id extends AcknowledgedOperationId>(
  ctx: Context,
  id: Id,
  input: Input<Id>,
  options: RequestOptions | undefined,
): Promise<void> {
  await ctx.call(id, input, options);
}
