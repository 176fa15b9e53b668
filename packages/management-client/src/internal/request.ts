import type { RequestFunction } from "@api-clients/core";
import type { operations } from "../generated/schema.js";

/**
 * What every resource module shares: the client's typed `request()`, so each method is one call of it
 * (input and result typed by operationId from the spec).
 */
export interface Context {
  readonly request: RequestFunction<operations>;
}
