// The public API of @api-clients/mcp: the server (to embed in a process of your own), its settings,
// and the generated tool table.
export { Backend, type BackendOptions } from "./internal/backend.js";
export { DEFAULT_MAX_RESULT_BYTES } from "./internal/bounds.js";
export { CONFIRMATION_TTL_MS, type UsedTokens } from "./internal/confirm.js";
export {
  annotationsOf,
  createServer,
  createShared,
  servedTools,
  toolOf,
  TOOLSETS,
  type ServerSettings,
  type Shared,
  type SharedOptions,
} from "./internal/server.js";
export { SECRET_FIELDS } from "./internal/redact.js";
export type { JsonSchema, ToolSpec } from "./internal/tool-spec.js";
export { toolSpecs } from "./generated/tools.js";
export { run, type RunIo } from "./run.js";
