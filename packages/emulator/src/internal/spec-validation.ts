// Checks a request against its operation's rules. The rules are compiled from the specs by codegen
// (src/generated/operations.ts) and checked by core's one checker: nothing here reads a spec or
// restates a rule by hand. A broken rule is a core `ValidationError`, answered as 400 by the server.
//
// Open value sets (`x-extensible-enum`) are checked closed here: the clients must accept values the
// service adds later, but the emulator plays today's service, which refuses a value it does not know
// (`primary_region: must be one of "us-east-1", …`).
import { ValidationError } from "@api-clients/core";
import { checkValue, parsePathParam, parseQuery } from "@api-clients/core/internal";
import type { SpecOperation } from "../generated/operations.js";

/** The service's view: a value outside an open set's known values is refused. */
const AS_THE_SERVICE = { closedKnown: true } as const;

/** The checked inputs of a request. */
export interface CheckedRequest {
  /** The query, each parameter in its schema's type, defaults applied. */
  readonly query: Record<string, unknown>;
  /** The parsed JSON body, or `undefined` when there is none. */
  readonly body: unknown;
}

/**
 * Reads the query and checks path parameters (percent-decoded) and the parsed JSON body by the
 * operation's rules. Body fields are named bare (`name: is required`), the body itself `body`.
 */
export function checkRequest(
  op: SpecOperation,
  search: URLSearchParams,
  pathParams: Readonly<Record<string, string>>,
  body: unknown,
): CheckedRequest {
  const query = parseQuery(op.params, search, AS_THE_SERVICE);
  for (const rule of op.params) {
    if (rule.in === "path") parsePathParam(rule, pathParams[rule.name] ?? "", AS_THE_SERVICE);
  }
  if (op.body === undefined) return { query, body: undefined };
  if (body === undefined) {
    if (op.body.required) throw new ValidationError("body", "is required");
    return { query, body };
  }
  try {
    checkValue(op.body.schema, body, "", AS_THE_SERVICE);
  } catch (e) {
    if (e instanceof ValidationError && e.field === "") throw new ValidationError("body", e.rule);
    throw e;
  }
  return { query, body };
}
