import { createManagementClient } from "../../src/index.js";
import type { ManagementClient, ManagementClientOptions } from "../../src/index.js";
import { API_KEY, EMAIL } from "./fixtures.js";
import type { RecordingServer } from "./recording-server.js";

/** A client talking to the recording server with the test credentials (fast timeouts, no backoff surprises). */
export function clientFor(
  server: RecordingServer,
  options: Partial<ManagementClientOptions> = {},
): ManagementClient {
  return createManagementClient({
    email: EMAIL,
    apiKey: API_KEY,
    baseUrl: server.url,
    timeoutMs: 5_000,
    ...options,
  });
}
