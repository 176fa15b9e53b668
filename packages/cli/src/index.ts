/**
 * `@api-clients/cli`: the `api-clients` command line. Besides the binary, {@link run} runs it in-process
 * with given arguments and streams.
 * @packageDocumentation
 */
import { CommanderError } from "commander";
import type { Io } from "./context.js";
import { buildProgram } from "./program.js";
import type { RunState } from "./run-state.js";
import { renderWaterfall } from "./output/trace.js";
import { streamWidth } from "./output/fit.js";
import { ExitCode, report } from "./report.js";

export { ExitCode } from "./report.js";
export type { Io } from "./context.js";

/** Options of {@link run}. */
export interface RunOptions extends Partial<Io> {
  /** Aborting it interrupts the run (exit code 130), as Ctrl-C does for the binary. */
  signal?: AbortSignal;
}

/**
 * Runs `api-clients` with `args` (without the program name) and resolves to its exit code.
 *
 * @example
 * const code = await run(["logs", "list", "--state", "FAILED", "--json"]);
 */
export async function run(args: readonly string[], options: RunOptions = {}): Promise<number> {
  const state: RunState = {
    io: {
      stdout: options.stdout ?? process.stdout,
      stderr: options.stderr ?? process.stderr,
      stdin: options.stdin ?? process.stdin,
      env: options.env ?? process.env,
    },
    signal: options.signal ?? new AbortController().signal,
    context: undefined,
    command: undefined,
  };
  try {
    await buildProgram(state).parseAsync([...args], { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end the run successfully; every other commander error is a usage error.
      return error.code === "commander.helpDisplayed" || error.code === "commander.version"
        ? ExitCode.ok
        : ExitCode.usage;
    }
    return report(error, state);
  } finally {
    if (state.trace)
      state.io.stderr.write(
        renderWaterfall(state.trace.stop(), 40, streamWidth(state.io, "stderr")),
      );
  }
}
