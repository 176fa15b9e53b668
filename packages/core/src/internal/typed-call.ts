// The typed entry point, `request(operationId, input, options)`: the methods are one-liners over it.
// It builds its call value, has openapi-fetch build the request (URL, JSON body, headers), binds the
// call to it through the per-request `fetch` (its own closure: this call's outcome only), and reads
// the success body from the bytes the answer holds, parsed once.
import { ValidationError } from "../errors.js";
import type { OperationSpec } from "../operation.js";
import type { RequestOptions } from "../options.js";
import { invalidResponse } from "./buffered-response.js";
import { checkInput, newCallId, type ApiContext, type Call } from "./call.js";
import { validateLimits } from "./client-options.js";
import type { AnyRequest } from "./raw-call.js";
import { send, type Outcome } from "./send.js";

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
    typed: true,
    limits,
    signal: options.signal,
    warnings,
    fetch: api.options.fetch,
  };
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

/**
 * Sends one operation by its operationId and resolves to its parsed success body (checked against
 * the spec's success shape, then passed through `read`); an acknowledgement resolves to `undefined`.
 */
export async function typedRequestCall<T>(
  api: ApiContext,
  client: AnyRequest,
  operations: Readonly<Record<string, OperationSpec>>,
  id: string,
  input: CallInput = {},
  options: RequestOptions = {},
  read?: Read<T>,
): Promise<T> {
  const call = typedCall(api, operations, id, input, options);
  const operation = call.operation as OperationSpec;
  // This call's outcome, handed over by its own `fetch` (a middleware may answer instead: none).
  let outcome: Outcome | undefined;
  const fetch = (request: Request) => send(api, call, request).then((o) => (outcome = o).response);
  try {
    const { data, response } = (await client(operation.method, operation.path, {
      params: { path: input.path, query: input.query },
      body: input.body,
      signal: options.signal,
      fetch,
    })) as { data?: unknown; response: Response };
    let result: T = undefined as T;
    if (!outcome?.applied && operation.success !== "acknowledgement") {
      const body = readSuccess(operation, data, response);
      result = read ? read(body, response) : (body as T);
    }
    outcome?.watch.finish(undefined);
    return result;
  } catch (error) {
    outcome?.watch.finish(error);
    throw error;
  }
}
