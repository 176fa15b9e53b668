// The same server over either transport: the built binary over stdio (see `connect`), or the
// stateless Streamable HTTP transport on 127.0.0.1, served in the test process with the settings the
// same command-line flags give. Both hand back the SDK's own client, connected.
import type { Emulator } from "@api-clients/emulator";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { Backend } from "../../src/internal/backend.js";
import { serveHttp } from "../../src/internal/http.js";
import { createShared } from "../../src/internal/server.js";
import { parseOptions } from "../../src/options.js";
import { settingsOf } from "../../src/run.js";
import { connect, credentialsEnv } from "./server.js";

/** The transports every transport-independent test runs over. */
export const TRANSPORTS = ["stdio", "http"] as const;
export type TransportName = (typeof TRANSPORTS)[number];

/**
 * Connects the SDK's client to a new server with `flags`, against `emu`, over `transport`. Over HTTP
 * the server listens on a free port of 127.0.0.1 and stops when the client is closed.
 */
export async function connectOver(
  transport: TransportName,
  emu: Emulator,
  flags: readonly string[] = [],
  capabilities: ClientCapabilities = {},
): Promise<Client> {
  if (transport === "stdio") return connect(emu, flags, capabilities);
  const env = credentialsEnv(emu);
  const options = parseOptions(["--base-url", emu.url, ...flags], env);
  const backend = new Backend({
    env,
    logs: { baseUrl: emu.url },
    management: { baseUrl: emu.url },
  });
  const served = await serveHttp(createShared(backend), settingsOf(options), { port: 0 });
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  } catch (error) {
    await served.close();
    throw error;
  }
  const closeClient = client.close.bind(client);
  client.close = async () => {
    try {
      await closeClient();
    } finally {
      await served.close();
    }
  };
  return client;
}
