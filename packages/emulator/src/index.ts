/**
 * `@api-clients/emulator`: a local, stateful server of the logs and management APIs, driven by their
 * specs, with fault injection.
 */
export {
  createEmulator,
  startEmulator,
  type InProcessEmulator,
  type Emulator,
  type EmulatorOptions,
  type EmulatorAccount,
  type EmulatorLogs,
  type EmulatorSnapshot,
  type LogEntry,
  type LogEntryInput,
} from "./emulator.js";
export type { FaultRule } from "./internal/faults.js";
export type { ScenarioHandle, ScenarioName, ScenarioOptions } from "./internal/scenarios.js";
export { nextBurstWindow, type RateLimitCounts } from "./internal/rate-limits.js";
export type { RequestRecord } from "./internal/request-log.js";
export type {
  SimulateMessageOptions,
  Outcome as MessageOutcome,
} from "./internal/simulate-message.js";
export type { ManagementSnapshot } from "./internal/management-state.js";
