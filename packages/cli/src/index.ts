/**
 * `@api-clients/cli`: the `api-clients` command line. Besides the binary, {@link run} runs it in-process
 * with given arguments and streams.
 * @packageDocumentation
 */
import { CommanderError } from "commander";
import type { Io } from "./context.js";
import { allCommands, COMMAND_GROUPS } from "./commands.js";
import { buildProgram } from "./program.js";
import { renderWaterfall } from "./output/trace.js";
import { streamWidth } from "./output/fit.js";
import { CommandFailure, ExitCode, report } from "./report.js";

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
  const io: Io = {
    stdout: options.stdout ?? process.stdout,
    stderr: options.stderr ?? process.stderr,
    stdin: options.stdin ?? process.stdin,
    env: options.env ?? process.env,
  };
  const signal = options.signal ?? new AbortController().signal;
  try {
    const program = buildProgram(io, signal, allCommands(), COMMAND_GROUPS);
    await program.parseAsync([...args], { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end the run successfully; every other commander error is a usage error.
      return error.code === "commander.helpDisplayed" || error.code === "commander.version"
        ? ExitCode.ok
        : ExitCode.usage;
    }
    const code = report(error, io, signal);
    if (error instanceof CommandFailure && error.trace !== undefined)
      io.stderr.write(renderWaterfall(error.trace, 40, streamWidth(io, "stderr")));
    return code;
  }
}
