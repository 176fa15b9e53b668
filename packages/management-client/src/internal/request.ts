import { invalidResponse, readAcknowledgement, readJson } from "@api-clients/core";
import type { RequestOptions, Transport } from "@api-clients/core";
import type { Client } from "openapi-fetch";
import { operations as table } from "../generated/operations.js";
import type { OperationId } from "../generated/operations.js";
import type { components, operations, paths } from "../generated/schema.js";

/** What every resource module shares: the typed openapi-fetch client and the transport under it. */
export interface Context {
  readonly raw: Client<paths>;
  readonly transport: Transport;
}

type Success<Id extends OperationId> = operations[Id]["responses"][200];

/** Operations whose success is the bare acknowledgement `"OK"`. */
export type AcknowledgedOperationId = {
  [Id in OperationId]: Success<Id> extends components["responses"]["Ok"] ? Id : never;
}[OperationId];

/** Operations whose success is a JSON record or array. */
export type RecordOperationId = Exclude<OperationId, AcknowledgedOperationId>;

/** The JSON document a record operation resolves to. */
export type Result<Id extends RecordOperationId> =
  Success<Id> extends {
    content: { "application/json": infer Body };
  }
    ? Body
    : never;

type Params<Id extends OperationId> = operations[Id]["parameters"];
type JsonBody<Id extends OperationId> = operations[Id] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

/** The path parameters, query and JSON body of one operation, as the spec declares them. */
export type Input<Id extends OperationId> = {
  path?: Params<Id>["path"];
  query?: Params<Id>["query"];
  body?: JsonBody<Id>;
};

/**
 * Sends one operation and parses its JSON result, which must have the shape the spec gives it (an
 * array or an object); anything else is an `InvalidResponseError`, never a silently wrong value.
 */
export async function send<Id extends RecordOperationId>(
  ctx: Context,
  id: Id,
  input: Input<Id>,
  options: RequestOptions | undefined,
): Promise<Result<Id>> {
  const result = await perform(ctx, id, input, options);
  const body = readJson<unknown>(result);
  const isArray = Array.isArray(body);
  if (
    table[id].success === "array" ? !isArray : typeof body !== "object" || body === null || isArray
  ) {
    throw invalidResponse(result, `expected a JSON ${table[id].success}`);
  }
  return body as Result<Id>;
}

/** Sends one operation whose success is the acknowledgement `"OK"` (JSON string, plain text or empty). */
export async function acknowledge<Id extends AcknowledgedOperationId>(
  ctx: Context,
  id: Id,
  input: Input<Id>,
  options: RequestOptions | undefined,
): Promise<void> {
  readAcknowledgement(await perform(ctx, id, input, options));
}

/**
 * Looks the operation up in the generated table (method, path template, retry safety) and sends it
 * through openapi-fetch, which percent-encodes each path parameter into its own segment.
 */
async function perform(
  ctx: Context,
  id: OperationId,
  input: Input<OperationId>,
  options: RequestOptions | undefined,
): Promise<{ data?: string; response: Response }> {
  const { method, path, idempotent } = table[id];
  const init = {
    params: { path: input.path, query: input.query },
    body: input.body,
    parseAs: "text",
    // The per-call fetch carries the call's signal, timeout and retries, and the retry policy.
    fetch: ctx.transport.fetchFor(options, { idempotent }),
  };
  // The input was checked against this operation's own types by the caller; openapi-fetch cannot
  // relate a runtime operation id to its path's types, so the call itself is untyped.
  const request = ctx.raw.request as unknown as (
    method: string,
    path: string,
    init: object,
  ) => Promise<{ data?: string; response: Response }>;
  return request(method.toLowerCase(), path, init);
}
