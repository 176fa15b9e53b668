// The typed entry point, `request(operationId, input, options)`: the methods are one-liners over it.
// It builds its call and its request itself (URL by openapi-fetch's exported builder, JSON body
// serialized once), sends it, and reads the success body it holds, once.
import { createFinalURL } from "openapi-fetch";
import { ValidationError } from "../errors.js";
import type { OperationSpec } from "../operation.js";
import type { RequestOptions } from "../options.js";
import { invalidResponse } from "./buffered-response.js";
import { checkInput, newCallId, type ApiContext, type Call } from "./call.js";
import { validateLimits } from "./client-options.js";
import { send } from "./send.js";
import { pathSerializer, querySerializer } from "./serializers.js";

/** The path parameters, query and JSON body of one call. */
export interface CallInput {
  readonly path?: object | undefined;
  readonly query?: object | undefined;
  readonly body?: unknown;
}

/** Reads a success body on top of the spec's check (a method's own rule). */
export type Read<T> = (data: unknown, response: Response) => T;

/** Builds the call value of `request()`: the operation, the caller's values, limits and signal. */
function typedCall(
  api: ApiContext,
  operations: Readonly<Record<string, OperationSpec>>,
  id: string,
  input: CallInput,
  options: RequestOptions,
): Call {
  const operation = Object.hasOwn(operations, id) ? operations[id] : undefined;
  if (operation === undefined) {
    throw new ValidationError(
      "operationId",
      `is not an operation of this API: ${JSON.stringify(id)}`,
    );
  }
  const limits = validateLimits(options, api.options);
  const warnings = checkInput(api, operation, id, input);
  return {
    operation,
    operationId: id,
    callId: newCallId(),
    mode: "typed",
    limits,
    signal: options.signal,
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
    warnings,
    fetch: api.options.fetch,
  };
}

/** The request of a typed call: method, URL and headers (the body travels in the call). */
function typedRequest(api: ApiContext, call: Call, input: CallInput): Request {
  const operation = call.operation as OperationSpec;
  const url = createFinalURL(operation.path, {
    baseUrl: api.options.baseUrl,
    params: {
      path: input.path as Record<string, unknown>,
      query: input.query as Record<string, unknown>,
    },
    querySerializer,
    pathSerializer,
  });
  const headers = new Headers(api.options.headers);
  if (call.body !== undefined && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  return new Request(url, { method: operation.method, headers });
}

/** Checks a success body against the shape the spec promises; anything else is an `InvalidResponseError`. */
function readSuccess(operation: OperationSpec, data: unknown, response: Response): unknown {
  if (data === undefined) throw invalidResponse(response, "response body is empty");
  const isArray = Array.isArray(data);
  const ok =
    operation.success === "array" ? isArray : typeof data === "object" && data !== null && !isArray;
  if (!ok) throw invalidResponse(response, `expected a JSON ${operation.success}`, data);
  return data;
}

/** The parsed success body: `undefined` for an empty one (the bytes are parsed once, here). */
async function parsed(response: Response): Promise<unknown> {
  if (response.headers.get("content-length") === "0") return undefined;
  return response.json() as Promise<unknown>;
}

/**
 * Sends one operation by its operationId and resolves to its parsed success body (checked against
 * the spec's success shape, then passed through `read`); an acknowledgement resolves to `undefined`.
 */
export async function typedRequestCall<T>(
  api: ApiContext,
  operations: Readonly<Record<string, OperationSpec>>,
  id: string,
  input: CallInput = {},
  options: RequestOptions = {},
  read?: Read<T>,
): Promise<T> {
  const call = typedCall(api, operations, id, input, options);
  const { response, applied, watch } = await send(api, call, typedRequest(api, call, input));
  try {
    const operation = call.operation as OperationSpec;
    let result: T = undefined as T;
    if (!applied && operation.success !== "acknowledgement") {
      const body = readSuccess(operation, await parsed(response), response);
      result = read === undefined ? (body as T) : read(body, response);
    }
    watch.finish(undefined);
    return result;
  } catch (error) {
    watch.finish(error);
    throw error;
  }
}
