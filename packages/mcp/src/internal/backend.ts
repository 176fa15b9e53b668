// The two clients a server sends through, built once per process from the user's options, and the
// capture of a request exactly as a client would send it (for the preview of a destructive call).
import { createLogsClient, type LogsClientOptions } from "@api-clients/logs-client";
import {
  createManagementClient,
  type ManagementClientOptions,
} from "@api-clients/management-client";
import type { RequestOptions } from "@api-clients/core";
import {
  basicAuthorization,
  bearerAuthorization,
  secretRedactor,
} from "@api-clients/core/internal";

/** The path parameters, query and JSON body of one call. */
export interface CallInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The part of either client a tool call uses: its public `request()`. */
interface Requester {
  request(id: string, input: CallInput, options?: RequestOptions): Promise<unknown>;
}

/** A request as the client would send it: method, URL, headers (credentials masked), body. */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The options of the two clients; credentials default to the clients' environment variables. */
export interface BackendOptions {
  /** Options of the logs client (`token`, `baseUrl`, `rateLimiter`, …). */
  logs?: LogsClientOptions;
  /** Options of the management client (`email`, `apiKey`, `baseUrl`, …). */
  management?: ManagementClientOptions;
  /** Environment the credentials are read from when not given. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A request stopped before it left. */
class NotSent extends Error {}

/** The clients of one process, created on first use, and the masking of their credentials. */
export class Backend {
  private readonly clients = new Map<"logs" | "management", Requester>();
  /** Masks every credential in use (and its Authorization forms) in a text, as `[REDACTED]`. */
  readonly maskCredentials: (text: string) => string;
  private readonly logsOptions: LogsClientOptions;
  private readonly managementOptions: ManagementClientOptions;

  constructor(options: BackendOptions = {}) {
    const env = options.env ?? process.env;
    const pick = (value: string | undefined, name: string) =>
      value ?? (env[name] === "" ? undefined : env[name]);
    const token = pick(options.logs?.token, "QSTASH_TOKEN");
    const email = pick(options.management?.email, "UPSTASH_EMAIL");
    const apiKey = pick(options.management?.apiKey, "UPSTASH_API_KEY");
    this.logsOptions = { ...options.logs, ...(token === undefined ? {} : { token }) };
    this.managementOptions = {
      ...options.management,
      ...(email === undefined ? {} : { email }),
      ...(apiKey === undefined ? {} : { apiKey }),
    };
    // Core's redactor (the one the clients' errors and logs use): each credential, its Authorization
    // value and the base64 part of Basic auth, plainly or JSON-escaped, in any letter case.
    const basic =
      email !== undefined && apiKey !== undefined ? basicAuthorization(email, apiKey) : undefined;
    this.maskCredentials = secretRedactor([
      ...(token === undefined ? [] : [token, bearerAuthorization(token)]),
      ...(apiKey === undefined ? [] : [apiKey, encodeURIComponent(apiKey)]),
      ...(basic === undefined ? [] : [basic, basic.slice("Basic ".length)]),
    ]);
  }

  private create(api: "logs" | "management", overrides: object = {}): Requester {
    return (api === "logs"
      ? createLogsClient({ ...this.logsOptions, ...overrides })
      : createManagementClient({
          ...this.managementOptions,
          ...overrides,
        })) as unknown as Requester;
  }

  /** Sends `operationId` through `api`'s client (its checks, retries, deadline and rate limits). */
  send(
    api: "logs" | "management",
    operationId: string,
    input: CallInput,
    options: RequestOptions,
  ): Promise<unknown> {
    let client = this.clients.get(api);
    if (client === undefined) {
      client = this.create(api);
      this.clients.set(api, client);
    }
    return client.request(operationId, input, options);
  }

  /**
   * Builds `operationId`'s request through a client's whole pipeline (the same checks and URL) and
   * returns it instead of sending it; a wrong input throws as it would when sent.
   */
  async capture(
    api: "logs" | "management",
    operationId: string,
    input: CallInput,
  ): Promise<CapturedRequest> {
    let captured: CapturedRequest | undefined;
    const client = this.create(api, {
      maxRetries: 0,
      fetch: async (request: Request) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of request.headers) {
          headers[name] =
            name === "authorization" ? `${value.split(" ")[0]} ***` : this.maskCredentials(value);
        }
        const body = request.body === null ? "" : await request.text();
        captured = {
          method: request.method,
          url: this.maskCredentials(request.url),
          headers,
          ...(body === "" ? {} : { body: this.maskCredentials(body) }),
        };
        throw new NotSent("not sent");
      },
    });
    try {
      await client.request(operationId, input);
    } catch (error) {
      if (captured !== undefined) return captured;
      throw error;
    }
    throw new Error("the client sent no request");
  }
}
