// What a command is: a value naming its path, help, arguments and flags (each with the API fields it
// fills), a `read` from the parsed command line to a typed input, and a `run`. Logs commands,
// management commands and `call` are all such values; `program.ts` only mounts them, shell completion
// is generated from them, and the error report finds the flag of a failing field in them.
import type { Context } from "./context.js";

/** One flag of a command, in commander's notation (`-o, --out <file>`, `--no-progress`). */
export interface FlagSpec {
  readonly flags: string;
  readonly description?: string;
  /** The fields it fills, as a `ValidationError` names them (`count`, `body.database_name`). */
  readonly fills?: readonly string[];
  /** How the flag is named for a field in messages (default: its long flag): `--param id`. */
  readonly shown?: (field: string) => string;
  readonly default?: string;
  /** Given several times, its values are collected into an array (else the last one counts). */
  readonly repeat?: boolean;
  /** The values it takes, when known (shell completion offers them). */
  readonly values?: readonly string[];
  /** Accepted but neither shown in help nor completed (a second spelling, a deprecated one). */
  readonly hidden?: boolean;
}

/** One positional argument. */
export interface ArgSpec {
  readonly name: string;
  readonly description: string;
  readonly fills?: readonly string[];
  /** The values it takes, when known (shell completion offers them). */
  readonly values?: readonly string[];
}

/** What `read` may use besides the command line: the time, warnings, and stdin (`--body @-`). */
export interface ReadEnv {
  readonly now: number;
  readonly warn: (message: string) => void;
  readonly stdin: NodeJS.ReadableStream;
}

/** A command: `path` under `api-clients`, what it reads, and what it does. */
export interface CliCommand<Input = unknown> {
  readonly path: readonly string[];
  readonly summary: string;
  /** Help printed after the options. */
  readonly help?: string;
  readonly args?: readonly ArgSpec[];
  readonly flags: readonly FlagSpec[];
  /** The positional arguments and parsed options (commander's camelCase names) as the typed input. */
  read(
    args: readonly string[],
    opts: Readonly<Record<string, unknown>>,
    env: ReadEnv,
  ): Input | Promise<Input>;
  run(ctx: Context, input: Input): Promise<void>;
}

/** A group of commands (`logs`, `db`, `call`): its name and help. */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly help?: string;
}

/** Type-checks a command value (its `read` and `run` agree on the input). */
export const defineCommand = <Input>(command: CliCommand<Input>): CliCommand<Input> => command;

/** The long flag of a spec (`--out` of `-o, --out <file>`), or its short one. */
export function longFlag(spec: FlagSpec): string {
  const names = spec.flags.split(/[ ,|]+/).filter((part) => part.startsWith("-"));
  return names.find((name) => name.startsWith("--")) ?? (names[0] as string);
}

/** The flag or argument of `command` that fills `field`, as the user types it; or `undefined`. */
export function flagFor(command: CliCommand, field: string): string | undefined {
  for (const arg of command.args ?? []) if (arg.fills?.includes(field)) return `<${arg.name}>`;
  for (const spec of command.flags)
    if (spec.fills?.includes(field)) return spec.shown ? spec.shown(field) : longFlag(spec);
  return undefined;
}
