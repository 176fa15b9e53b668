/**
 * Helpers shared by the `@api-clients/*` packages. **Not covered by semver**: anything exported from
 * `@api-clients/core/internal` may change in any release. Applications use the clients' own exports.
 *
 * @packageDocumentation
 */
export { checkParams, checkValue, parsePathParam, parseQuery } from "./internal/schema.js";
export type { OperationRules, OperationSpec, ParameterRule, Schema } from "./internal/schema.js";
