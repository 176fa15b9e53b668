// What a run keeps for its error report and its trace: the streams, the interrupt signal, and, once a
// command's action starts, the command and the context made for it. Made per run by `run()`.
import type { Command } from "commander";
import type { Context, Io } from "./context.js";
import type { recordCalls } from "./output/trace.js";

/** What the error report needs to know about the command that ran. */
export interface RunState {
  io: Io;
  signal: AbortSignal;
  context: Context | undefined;
  command: Command | undefined;
  /** With `--trace`: the recording of the run's calls, drawn on stderr when it ends. */
  trace?: ReturnType<typeof recordCalls>;
}
