// The command tree (commander): the global options, then every command value mounted at its path.
import { readFileSync } from "node:fs";
import { Argument, Command, Option } from "commander";
import type { CliCommand, CommandGroup, FlagSpec } from "./command.js";
import { commandPath, usageLine } from "./command-path.js";
import { Context, type GlobalOptions, type Io } from "./context.js";
import { GLOBAL_FLAGS, readGlobals, ROOT_HELP } from "./globals.js";
import { collect } from "./operations.js";
import { streamWidth } from "./output/fit.js";
import { writeHelpTo } from "./output/help.js";
import { readJsonOutput } from "./output/json.js";
import { recordCalls, renderWaterfall } from "./output/trace.js";
import { CommandFailure } from "./report.js";

const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

function option(spec: FlagSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.repeat === true) option.argParser(collect);
  if (spec.default !== undefined) option.default(spec.default);
  return spec.hidden === true ? option.hideHelp() : option;
}

/** Builds the program for one run: its streams, its interrupt signal, and the commands to mount. */
export function buildProgram(
  io: Io,
  signal: AbortSignal,
  commands: readonly CliCommand[],
  groups: readonly CommandGroup[],
): Command {
  const program = new Command("api-clients")
    .description("The message logs and account management APIs from a terminal.")
    .version(VERSION, "--version", "print the version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .exitOverride()
    .addHelpText("after", ROOT_HELP);
  writeHelpTo(program, io);
  for (const spec of GLOBAL_FLAGS) program.addOption(option(spec));

  const parentOf = (path: readonly string[]): Command => {
    let parent = program;
    for (const name of path) {
      let next = parent.commands.find((c) => c.name() === name);
      if (next === undefined) {
        const group = groups.find((g) => g.name === name);
        next = parent.command(name).description(group?.summary ?? name);
        if (group?.help !== undefined) next.addHelpText("after", group.help);
      }
      parent = next;
    }
    return parent;
  };

  for (const spec of commands) {
    const command = parentOf(spec.path.slice(0, -1))
      .command(spec.path.at(-1) as string)
      .description(spec.summary);
    for (const arg of spec.args ?? [])
      command.addArgument(new Argument(`<${arg.name}>`, arg.description));
    for (const flag of spec.flags) command.addOption(option(flag));
    if (spec.help !== undefined) command.addHelpText("after", spec.help);
    command.action(async (...received: unknown[]) => {
      const args = received.slice(0, spec.args?.length ?? 0) as string[];
      let ctx: Context | undefined;
      let trace: ReturnType<typeof recordCalls> | undefined;
      try {
        const options = await readGlobals(program.opts<GlobalOptions>(), io);
        const json = readJsonOutput(command, options.jq);
        const context = new Context(io, { ...options, ...json }, signal);
        ctx = context;
        if (options.trace === true) trace = recordCalls();
        const env = { now: Date.now(), warn: (m: string) => context.err(m), stdin: io.stdin };
        await spec.run(context, await spec.read(args, command.opts(), env));
      } catch (error) {
        throw new CommandFailure(error, spec, command, ctx, trace?.stop());
      }
      if (trace !== undefined)
        io.stderr.write(renderWaterfall(trace.stop(), 40, streamWidth(io, "stderr")));
    });
  }

  for (const command of walk(program))
    command.showHelpAfterError(
      `${usageLine(command)}\nRun "${commandPath(command)} --help" for details.`,
    );
  return program;
}

function* walk(command: Command): Generator<Command> {
  yield command;
  for (const sub of command.commands) yield* walk(sub);
}
