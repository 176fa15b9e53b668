// What every command shares: the streams, the global options, the clients built from them, colour,
// the interrupt signal, and the redaction of credentials from everything printed.
import {
  basicAuthorization,
  secretRedactor,
  serializedSecretRedactor,
} from "@api-clients/core/internal";
import {
  createLogsClient,
  DEFAULT_LOGS_BASE_URL,
  ValidationError,
  type LogsClient,
  type LogEvent,
} from "@api-clients/logs-client";
import {
  createManagementClient,
  DEFAULT_MANAGEMENT_BASE_URL,
  type ManagementClient,
} from "@api-clients/management-client";
import { readValue } from "./operations.js";
import { colorEnabled, colorsFor, type Colors } from "./output/colors.js";
import { safeJson } from "./output/safe.js";
import { streamWidth } from "./output/fit.js";

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
  /** `--token-file`: read into `token` before the command runs. */
  tokenFile?: string;
  email?: string;
  apiKey?: string;
  /** `--api-key-file`: read into `apiKey` before the command runs. */
  apiKeyFile?: string;
  baseUrl?: string;
  maxRetries?: string;
  timeout?: string;
  verbose?: boolean;
  trace?: boolean;
  /** `--wide`: tables never cut a cell, as when stdout is not a terminal. */
  wide?: boolean;
  color: boolean;
  /** `--no-pager` gives `false`: long output on a terminal is not paged. @default true */
  pager?: boolean;
  /** `--jq <expr>`: the JSON output filtered by this jq program (see `output/json.ts`). */
  jq?: string;
  /** `--json <fields>`: the fields kept in each record of the JSON output. */
  fields?: string[];
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

/** A global flag that takes a count or milliseconds (`--max-retries`, `--timeout`), read by core. */
const count = (raw: string | undefined, option: string): number | undefined =>
  raw === undefined
    ? undefined
    : (readValue({ type: "integer", minimum: 0 }, raw, option) as number);

/** Which API a client serves. */
export type ApiName = "logs" | "management";

/** The environment variable of each API's base URL, as the clients read it. */
export const BASE_URL_VARIABLES: Readonly<Record<ApiName, string>> = {
  logs: "QSTASH_URL",
  management: "UPSTASH_API_URL",
};

/** Everything a command needs, built from the global options. */
export class Context {
  /** Colour functions for stdout and for stderr. */
  readonly colors: Colors;
  readonly errColors: Colors;
  /** Lines printed on stderr after an error's message (e.g. how to resume an export). */
  readonly notes: string[] = [];
  private readonly secrets: string[] = [];
  private redactor: (text: string) => string = (text) => text;
  private serializedRedactor: (text: string) => string = (text) => text;
  private logsClient: LogsClient | undefined;
  /** Called with every log event of the clients (the export's progress line listens for waits). */
  private readonly listeners: ((event: LogEvent) => void)[] = [];
  private managementClient: ManagementClient | undefined;

  constructor(
    readonly io: Io,
    readonly options: GlobalOptions,
    /** Aborted on the first Ctrl-C. */
    readonly signal: AbortSignal,
  ) {
    this.colors = colorsFor(colorEnabled(io.stdout, io.env, options.color));
    this.errColors = colorsFor(colorEnabled(io.stderr, io.env, options.color));
    this.addSecrets(
      options.token ?? io.env["QSTASH_TOKEN"],
      options.apiKey ?? io.env["UPSTASH_API_KEY"],
    );
  }

  private addSecrets(...secrets: (string | undefined)[]): void {
    for (const secret of secrets)
      if (secret !== undefined && secret !== "") this.secrets.push(secret);
    this.redactor = secretRedactor(this.secrets);
    this.serializedRedactor = serializedSecretRedactor(this.secrets);
  }

  /**
   * The width tables fit when stdout is a terminal (`COLUMNS` when set, else the terminal's own), or
   * `undefined` (nothing is cut) when it is not or with `--wide`.
   */
  get terminalWidth(): number | undefined {
    return this.options.wide === true ? undefined : streamWidth(this.io, "stdout");
  }

  /** Writes to stdout, with every credential in use masked (whatever field of an answer holds it). */
  out(text: string): boolean {
    return this.io.stdout.write(this.redact(text));
  }

  /** Writes a line to stderr, with any credential masked. */
  err(line: string): void {
    this.io.stderr.write(this.redact(line) + "\n");
  }

  /** Masks every known credential (and its Basic-auth encoding) in `text`, as the clients do. */
  redact(text: string): string {
    return this.redactor(text);
  }

  /**
   * `redact` for text this process serialized itself (JSON.stringify, a CSV row): one search when it
   * holds no credential (an export's every entry), core's `serializedSecretRedactor`.
   */
  redactSerialized(text: string): string {
    return this.serializedRedactor(text);
  }

  /** `api`'s base URL: `--base-url`, else its environment variable (`QSTASH_URL`, `UPSTASH_API_URL`). */
  private baseUrl(api: ApiName): string | undefined {
    return this.options.baseUrl ?? (this.io.env[BASE_URL_VARIABLES[api]] || undefined);
  }

  /**
   * Who a request of `api` acts as and where it goes, for the question before an irreversible call:
   * the account e-mail (management) and the base URL; `production` when it is the live service's.
   */
  target(api: ApiName): { account: string | undefined; url: string; production: boolean } {
    const fallback = api === "logs" ? DEFAULT_LOGS_BASE_URL : DEFAULT_MANAGEMENT_BASE_URL;
    const url = this.baseUrl(api) ?? fallback;
    const account =
      api === "management" ? (this.options.email ?? this.io.env["UPSTASH_EMAIL"]) : undefined;
    return { account, url, production: url.replace(/\/+$/, "") === fallback.replace(/\/+$/, "") };
  }

  /**
   * Creates `api`'s client; a bad base URL from the environment is reported under the variable's name
   * (the clients name it `baseUrl`, which the command line shows as `--base-url`).
   */
  private create<T>(api: ApiName, create: () => T): T {
    try {
      return create();
    } catch (error) {
      if (
        error instanceof ValidationError &&
        error.field === "baseUrl" &&
        this.options.baseUrl === undefined
      )
        throw new ValidationError(BASE_URL_VARIABLES[api], error.rule);
      throw error;
    }
  }

  private shared(api: ApiName) {
    const maxRetries = count(this.options.maxRetries, "maxRetries");
    const timeoutMs = count(this.options.timeout, "timeoutMs");
    const baseUrl = this.baseUrl(api);
    return {
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      // Only when something reads the events: without a logger the clients build none per call.
      ...(this.options.verbose === true || this.listeners.length > 0
        ? {
            logger: (event: LogEvent) => {
              for (const listener of this.listeners) listener(event);
              if (this.options.verbose) this.err(this.errColors.dim(safeJson(event)));
            },
          }
        : {}),
    };
  }

  /**
   * Calls `listener` with every log event of the clients created from now on (a client already
   * created without a logger is dropped, so that the next one has it).
   */
  listen(listener: (event: LogEvent) => void): void {
    this.listeners.push(listener);
    this.logsClient = this.managementClient = undefined;
  }

  /** A logs client of its own with some options replaced (`rateLimiter`, say); not cached. */
  logsWith(overrides: object): LogsClient {
    return this.createLogs(overrides);
  }

  /** The logs client (token from `--token` or `QSTASH_TOKEN`). */
  logs(): LogsClient {
    return (this.logsClient ??= this.createLogs());
  }

  /** The management client (`--email`/`--api-key`, or `UPSTASH_EMAIL`/`UPSTASH_API_KEY`). */
  management(): ManagementClient {
    return (this.managementClient ??= this.createManagement());
  }

  /**
   * A client of `api` that sends nothing (for `--dry-run`): every attempt goes to `fetch`, which
   * records the request and throws; no retries.
   */
  offline(
    api: ApiName,
    fetch: (request: Request) => Promise<Response>,
  ): LogsClient | ManagementClient {
    const overrides = {
      fetch: (input: RequestInfo | URL) => fetch(input as Request),
      maxRetries: 0,
    };
    return api === "logs" ? this.createLogs(overrides) : this.createManagement(overrides);
  }

  private createLogs(overrides: object = {}): LogsClient {
    const token = this.options.token ?? this.io.env["QSTASH_TOKEN"];
    if (token === undefined || token === "")
      throw new UsageError("no logs API token: set QSTASH_TOKEN or pass --token");
    return this.create("logs", () =>
      createLogsClient({ token, ...this.shared("logs"), ...overrides }),
    );
  }

  private createManagement(overrides: object = {}): ManagementClient {
    const email = this.options.email ?? this.io.env["UPSTASH_EMAIL"];
    const apiKey = this.options.apiKey ?? this.io.env["UPSTASH_API_KEY"];
    if (email === undefined || email === "")
      throw new UsageError("no account e-mail: set UPSTASH_EMAIL or pass --email");
    if (apiKey === undefined || apiKey === "")
      throw new UsageError("no API key: set UPSTASH_API_KEY or pass --api-key");
    const authorization = basicAuthorization(email, apiKey);
    this.addSecrets(authorization, authorization.slice("Basic ".length));
    return this.create("management", () =>
      createManagementClient({ email, apiKey, ...this.shared("management"), ...overrides }),
    );
  }

  /** Throws {@link InterruptedError} once Ctrl-C was pressed. */
  checkInterrupted(): void {
    if (this.signal.aborted) throw new InterruptedError();
  }
}
