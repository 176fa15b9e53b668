// What every command shares: the streams, the global options, the clients built from them, colour,
// the interrupt signal, and the redaction of credentials from everything printed.
import { createLogsClient, type LogsClient, type LogEvent } from "@api-clients/logs-client";
import { createManagementClient, type ManagementClient } from "@api-clients/management-client";
import { colorEnabled, colorsFor, type Colors } from "./output/colors.js";

/** The streams and environment a run uses (the process's by default). */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream;
  env: Readonly<Record<string, string | undefined>>;
}

/** The options every command accepts (`api-clients --help`). */
export interface GlobalOptions {
  token?: string;
  email?: string;
  apiKey?: string;
  baseUrl?: string;
  maxRetries?: string;
  timeout?: string;
  verbose?: boolean;
  color: boolean;
}

/** A mistake in the command line: printed with the usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The run was interrupted (Ctrl-C): exit code 130. */
export class InterruptedError extends Error {
  override readonly name = "InterruptedError";
  constructor() {
    super("interrupted");
  }
}

function nonNegativeInteger(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw))
    throw new UsageError(`${flag}: expected a non-negative integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** Everything a command needs, built from the global options. */
export class Context {
  /** Colour functions for stdout and for stderr. */
  readonly colors: Colors;
  readonly errColors: Colors;
  /** Lines printed on stderr after an error's message (e.g. how to resume an export). */
  readonly notes: string[] = [];
  private readonly secrets: string[] = [];
  private logsClient: LogsClient | undefined;
  private managementClient: ManagementClient | undefined;

  constructor(
    readonly io: Io,
    readonly options: GlobalOptions,
    /** Aborted on the first Ctrl-C. */
    readonly signal: AbortSignal,
  ) {
    this.colors = colorsFor(colorEnabled(io.stdout, io.env, options.color));
    this.errColors = colorsFor(colorEnabled(io.stderr, io.env, options.color));
    for (const secret of [
      options.token ?? io.env["QSTASH_TOKEN"],
      options.apiKey ?? io.env["UPSTASH_API_KEY"],
    ])
      if (secret !== undefined && secret !== "") this.secrets.push(secret);
  }

  /** The terminal's width when stdout is a terminal (tables then fit it), else `undefined`. */
  get terminalWidth(): number | undefined {
    return this.io.stdout.isTTY === true ? (this.io.stdout.columns ?? 80) : undefined;
  }

  /** Writes to stdout. */
  out(text: string): boolean {
    return this.io.stdout.write(text);
  }

  /** Writes a line to stderr, with any credential replaced by `***`. */
  err(line: string): void {
    this.io.stderr.write(this.redact(line) + "\n");
  }

  /** Replaces every known credential (and its Basic-auth encoding) in `text` by `***`. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join("***");
    return out;
  }

  private shared() {
    const maxRetries = nonNegativeInteger(this.options.maxRetries, "--max-retries");
    const timeoutMs = nonNegativeInteger(this.options.timeout, "--timeout");
    return {
      ...(this.options.baseUrl !== undefined ? { baseUrl: this.options.baseUrl } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(this.options.verbose
        ? { logger: (event: LogEvent) => this.err(this.errColors.dim(JSON.stringify(event))) }
        : {}),
    };
  }

  /** The logs client (token from `--token` or `QSTASH_TOKEN`). */
  logs(): LogsClient {
    if (this.logsClient) return this.logsClient;
    const token = this.options.token ?? this.io.env["QSTASH_TOKEN"];
    if (token === undefined || token === "")
      throw new UsageError("no logs API token: set QSTASH_TOKEN or pass --token");
    return (this.logsClient = createLogsClient({ token, ...this.shared() }));
  }

  /** The management client (`--email`/`--api-key`, or `UPSTASH_EMAIL`/`UPSTASH_API_KEY`). */
  management(): ManagementClient {
    if (this.managementClient) return this.managementClient;
    const email = this.options.email ?? this.io.env["UPSTASH_EMAIL"];
    const apiKey = this.options.apiKey ?? this.io.env["UPSTASH_API_KEY"];
    if (email === undefined || email === "")
      throw new UsageError("no account e-mail: set UPSTASH_EMAIL or pass --email");
    if (apiKey === undefined || apiKey === "")
      throw new UsageError("no API key: set UPSTASH_API_KEY or pass --api-key");
    this.secrets.push(Buffer.from(`${email}:${apiKey}`).toString("base64"));
    return (this.managementClient = createManagementClient({ email, apiKey, ...this.shared() }));
  }

  /** Throws {@link InterruptedError} once Ctrl-C was pressed. */
  checkInterrupted(): void {
    if (this.signal.aborted) throw new InterruptedError();
  }
}
