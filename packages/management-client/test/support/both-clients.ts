/**
 * Both clients against core's fault-injecting test server, for the tests that hold the one request
 * path to the same behaviour whichever client (and whichever surface: ergonomic method or `raw`) sends.
 */
import {
  createLogsClient,
  type LogsClient,
  type LogsClientOptions,
} from "@api-clients/logs-client";
import { createManagementClient } from "../../src/index.js";
import type { ManagementClient, ManagementClientOptions } from "../../src/index.js";
import { API_KEY, AUTHORIZATION, EMAIL } from "./fixtures.js";

export {
  closedPortUrl,
  startTestServer,
  useTestServer,
  type RecordedRequest,
  type ScriptedResponse,
  type TestServer,
} from "../../../core/test/support/test-server.js";

/** The logs client's token; tests search every output for it. */
export const TOKEN = "qstash-token-7d1e0b3c-SECRET";

/** Every secret either client holds (the token, the API key, the Basic value and its base64 part). */
export const SECRETS = [
  TOKEN,
  API_KEY,
  AUTHORIZATION,
  AUTHORIZATION.slice("Basic ".length),
] as const;

export { API_KEY, AUTHORIZATION, EMAIL };

/** A logs client for `baseUrl` with the test token. */
export function logsAt(baseUrl: string, options: LogsClientOptions = {}): LogsClient {
  return createLogsClient({ token: TOKEN, baseUrl, ...options });
}

/** A management client for `baseUrl` with the test credentials. */
export function managementAt(
  baseUrl: string,
  options: Partial<ManagementClientOptions> = {},
): ManagementClient {
  return createManagementClient({ email: EMAIL, apiKey: API_KEY, baseUrl, ...options });
}

/** A database record as `databases.rename` returns it. */
export const RENAMED = {
  database_id: "96ad0856-03b1-4ee7-9666-e81abd0349e1",
  database_name: "renamed",
} as const;

export { rejection } from "../../../core/test/support/rejection.js";
