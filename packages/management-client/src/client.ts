import {
  ValidationError,
  type ClientOptions,
  type RequestFunction,
  type RequestOptions,
  type RawClient,
} from "@api-clients/core";
import {
  basicAuthorization,
  checkRequest,
  createApi,
  fromEnvironment,
} from "@api-clients/core/internal";
import { operations } from "./generated/operations.js";
import type { operations as Operations, paths } from "./generated/schema.js";
import { createAuditLogs } from "./resources/audit-logs.js";
import type { AuditLogs } from "./resources/audit-logs.js";
import { createBackups } from "./resources/backups.js";
import type { Backups } from "./resources/backups.js";
import { checkRegions, createDatabases } from "./resources/databases.js";
import type { Databases } from "./resources/databases.js";
import { createQStash } from "./resources/qstash.js";
import type { QStash } from "./resources/qstash.js";
import { createSearch } from "./resources/search.js";
import type { Search } from "./resources/search.js";
import { createTeams } from "./resources/teams.js";
import type { Teams } from "./resources/teams.js";
import { createVector } from "./resources/vector.js";
import type { Vector } from "./resources/vector.js";
import { USER_AGENT } from "./version.js";

/** Public URL of the management service. */
export const DEFAULT_MANAGEMENT_BASE_URL = "https://api.upstash.com";

/**
 * Public URL of the management service.
 * @deprecated Use {@link DEFAULT_MANAGEMENT_BASE_URL} (named like the logs client's `DEFAULT_LOGS_BASE_URL`).
 */
export const DEFAULT_BASE_URL = DEFAULT_MANAGEMENT_BASE_URL;

/** Options of {@link createManagementClient}: the account credentials plus the options shared by every client. */
export interface ManagementClientOptions extends ClientOptions {
  /**
   * E-mail of the account, sent as the HTTP Basic user name.
   * @default process.env.UPSTASH_EMAIL (where `process.env` exists)
   */
  email?: string;
  /**
   * API key of the account, sent as the HTTP Basic password; it never appears in errors, logs or
   * `util.inspect`.
   * @default process.env.UPSTASH_API_KEY (where `process.env` exists)
   */
  apiKey?: string;
}

/** The management client: one group of methods per resource, plus the typed openapi-fetch client. */
export interface ManagementClient {
  /** Key-value (Redis) databases. */
  readonly databases: Databases;
  /** Backups of a key-value database. */
  readonly backups: Backups;
  /** Teams and their members. */
  readonly teams: Teams;
  /** Vector indexes. */
  readonly vector: Vector;
  /** Search indexes. */
  readonly search: Search;
  /** The account's QStash users (one per region). */
  readonly qstash: QStash;
  /** The account's audit log. */
  readonly auditLogs: AuditLogs;
  /**
   * Sends any operation of the spec by its operationId, through the same checks, retries and
   * timeouts as the methods (each method is one call of it); resolves to the parsed success body
   * (`void` for an acknowledgement), throws the typed errors.
   * @example
   * const db = await m.request("getDatabase", { path: { id: "db_1" }, query: { credentials: "hide" } });
   */
  readonly request: RequestFunction<Operations>;
  /**
   * The typed openapi-fetch client every method goes through (auth, parameter checks, retries,
   * timeouts), for full control: HTTP errors come back as `{ error, response }`, connection failures
   * and timeouts throw the typed errors.
   */
  readonly raw: RawClient<paths>;
}

/**
 * Creates a client for the account management API.
 *
 * @example
 * const m = createManagementClient({ email: "me@example.com", apiKey: process.env.API_KEY! });
 * const databases = await m.databases.list();
 */
export function createManagementClient(options: ManagementClientOptions = {}): ManagementClient {
  if (typeof options !== "object" || options === null) {
    throw new ValidationError("options", "must be an object");
  }
  const {
    email = fromEnvironment("UPSTASH_EMAIL"),
    apiKey = fromEnvironment("UPSTASH_API_KEY"),
    ...shared
  } = options;
  if (typeof email !== "string" || email === "") {
    throw new ValidationError(
      "email",
      "must be a non-empty string (pass `email`, or set the UPSTASH_EMAIL environment variable)",
    );
  }
  if (email.includes(":")) {
    throw new ValidationError("email", 'must not contain ":" (HTTP Basic user names cannot)');
  }
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new ValidationError(
      "apiKey",
      "must be a non-empty string (pass `apiKey`, or set the UPSTASH_API_KEY environment variable)",
    );
  }
  const authorization = basicAuthorization(email, apiKey);
  const api = createApi<paths>({
    api: "management",
    options: shared,
    defaultBaseUrl: DEFAULT_MANAGEMENT_BASE_URL,
    baseUrlVariable: "UPSTASH_API_URL",
    authorization,
    secrets: [apiKey, authorization.slice("Basic ".length)],
    userAgent: USER_AGENT,
    operations,
    check: checkRequest,
    bodyChecks: { createDatabase: checkRegions },
  });
  const request = ((id: string, input?: object, call?: RequestOptions) =>
    api.request(id, input, call)) as RequestFunction<Operations>;
  const ctx = { request };
  const client: ManagementClient = {
    databases: createDatabases(ctx),
    backups: createBackups(ctx),
    teams: createTeams(ctx),
    vector: createVector(ctx),
    search: createSearch(ctx),
    qstash: createQStash(ctx),
    auditLogs: createAuditLogs(ctx),
    request,
    raw: api.raw,
  };
  const shown = { baseUrl: api.baseUrl };
  Object.defineProperties(client, {
    [Symbol.for("nodejs.util.inspect.custom")]: {
      value: () => `ManagementClient ${JSON.stringify(shown)}`,
    },
    toJSON: { value: () => shown },
  });
  return Object.freeze(client);
}
