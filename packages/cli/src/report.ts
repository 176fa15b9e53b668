// Turns what a run threw into the lines on stderr and the exit code.
import {
  ApiClientError,
  ApiError,
  ConnectionError,
  ValidationError,
} from "@api-clients/logs-client";
import { InterruptedError, UsageError } from "./context.js";
import { colorEnabled, colorsFor } from "./output/colors.js";
import type { Command } from "commander";
import { flagFor, type CliCommand } from "./command.js";
import { commandPath, usageLine } from "./command-path.js";
import type { Context, Io } from "./context.js";
import type { TracedCall } from "./output/trace.js";
import { safeText } from "./output/safe.js";

/** The exit codes of `api-clients`. */
export const ExitCode = {
  /** The command did what it was asked. */
  ok: 0,
  /** The API answered with an error, or the request failed after its retries. */
  failure: 1,
  /** The command line is wrong: unknown command or flag, bad value, missing credentials. */
  usage: 2,
  /** Stopped by SIGHUP (the terminal or SSH session closed); an export prints its resume line. */
  hangup: 129,
  /** Interrupted with Ctrl-C (SIGINT). */
  interrupted: 130,
  /** Stopped by SIGTERM (`timeout`, systemd, Kubernetes, CI); an export prints its resume line. */
  terminated: 143,
} as const;

/** The flag of a client option named by a `ValidationError`. */
const OPTION_FLAGS: Record<string, string> = {
  token: "--token",
  email: "--email",
  apiKey: "--api-key",
  baseUrl: "--base-url",
  maxRetries: "--max-retries",
  timeoutMs: "--timeout",
};

const attemptsOf = (error: unknown): number | undefined => {
  const attempts = (error as { attempts?: unknown }).attempts;
  return typeof attempts === "number" ? attempts : undefined;
};

/** What a command threw, with the command (value and mounted form), its context and its trace. */
export class CommandFailure {
  constructor(
    readonly error: unknown,
    readonly spec: CliCommand,
    readonly command: Command,
    readonly context: Context | undefined,
    readonly trace: { calls: TracedCall[]; dropped: number } | undefined,
  ) {}
}

/**
 * Prints what a run threw (a {@link CommandFailure} when its command had started) and returns the
 * exit code.
 */
export function report(thrown: unknown, io: Io, signal: AbortSignal): number {
  const failure = thrown instanceof CommandFailure ? thrown : undefined;
  const error = failure ? failure.error : thrown;
  const ctx = failure?.context;
  const redact = (text: string) => (ctx ? ctx.redact(text) : text);
  const colors = ctx?.errColors ?? colorsFor(colorEnabled(io.stderr, io.env, true));
  const verbose = ctx?.options.verbose === true;
  const lines: string[] = [];
  let code: number = ExitCode.failure;
  const usage = () => {
    if (failure) {
      lines.push(usageLine(failure.command));
      lines.push(`Run "${commandPath(failure.command)} --help" for details.`);
    }
  };

  if (error instanceof InterruptedError || (signal.aborted && !(error instanceof ApiError))) {
    code = ExitCode.interrupted;
    lines.push(colors.yellow("api-clients: interrupted"));
  } else if (error instanceof UsageError) {
    code = ExitCode.usage;
    lines.push(`${colors.red("api-clients:")} ${safeText(error.message)}`);
    usage();
  } else if (error instanceof ValidationError) {
    code = ExitCode.usage;
    const flag =
      (failure === undefined ? undefined : flagFor(failure.spec, error.field)) ??
      OPTION_FLAGS[error.field];
    const field = flag === undefined ? error.field : `${flag} (${error.field})`;
    lines.push(`${colors.red("api-clients:")} invalid ${safeText(field)}: ${safeText(error.rule)}`);
    usage();
  } else if (error instanceof ApiError) {
    lines.push(`${colors.red("api-clients:")} ${safeText(error.message)}`);
    const attempts = attemptsOf(error);
    const facts = [
      `status ${error.status}`,
      attempts === undefined ? undefined : `${attempts} attempt${attempts === 1 ? "" : "s"}`,
      error.requestId === undefined ? undefined : `request id ${safeText(error.requestId)}`,
    ].filter(Boolean);
    lines.push(colors.dim(`  ${facts.join(" · ")}`));
  } else if (error instanceof ConnectionError) {
    lines.push(`${colors.red("api-clients:")} ${safeText(error.message)}`);
    // The system error code under fetch's `TypeError: fetch failed`, e.g. ECONNREFUSED.
    const cause = error.cause instanceof Error ? error.cause : undefined;
    const code = (cause?.cause as { code?: unknown } | undefined)?.code;
    const attempts = attemptsOf(error);
    const facts = [
      typeof code === "string" ? safeText(code) : undefined,
      attempts === undefined ? undefined : `${attempts} attempt${attempts === 1 ? "" : "s"}`,
    ].filter(Boolean);
    if (facts.length > 0) lines.push(colors.dim(`  ${facts.join(" · ")}`));
  } else if (error instanceof ApiClientError || error instanceof Error) {
    lines.push(`${colors.red("api-clients:")} ${safeText(error.message)}`);
  } else {
    lines.push(`${colors.red("api-clients:")} ${safeText(String(error))}`);
  }
  if (ctx) for (const note of ctx.notes) lines.push(safeText(note));
  if (verbose && error instanceof Error && error.stack && code !== ExitCode.interrupted)
    lines.push(colors.dim(safeText(error.stack)));
  io.stderr.write(lines.map(redact).join("\n") + "\n");
  return code;
}
