export type { paths, components, operations } from "./generated/schema.js";
export type { LogEntry, LogPageWire, LogsErrorBody } from "./types.js";
