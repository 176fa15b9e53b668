// Checks a request against its operation's rules. The rules are compiled from the specs by codegen
// (src/generated/operations.ts) and checked by core's one checker: nothing here reads a spec or
// restates a rule by hand. A broken rule is a core `ValidationError`, answered as 400 by the server.
import { ValidationError } from "@api-clients/core";
import { checkValue, parsePathParam, parseQuery } from "@api-clients/core/internal";
import type { SpecOperation } from "../generated/operations.js";

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
  const query = parseQuery(op.params, search);
  for (const rule of op.params) {
    if (rule.in === "path") parsePathParam(rule, pathParams[rule.name] ?? "");
  }
  if (op.body === undefined) return { query, body: undefined };
  if (body === undefined) {
    if (op.body.required) throw new ValidationError("body", "is required");
    return { query, body };
  }
  try {
    checkValue(op.body.schema, body, "");
  } catch (e) {
    if (e instanceof ValidationError && e.field === "") throw new ValidationError("body", e.rule);
    throw e;
  }
  return { query, body };
}
