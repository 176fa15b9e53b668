// The test's server: the built `api-clients-mcp` binary spoken to over stdio by the SDK's own client,
// pointed at an emulator started in the test process.
import { fileURLToPath } from "node:url";
import { startEmulator, type Emulator, type EmulatorOptions } from "@api-clients/emulator";
import { createManagementClient, type ManagementClient } from "@api-clients/management-client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ClientCapabilities, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** The committed binary (it runs dist/cli.js). */
export const BIN = fileURLToPath(new URL("../../bin/api-clients-mcp.js", import.meta.url));

/** The environment that gives the server the emulator's credentials. */
export function credentialsEnv(emu: Emulator): Record<string, string> {
  return {
    QSTASH_TOKEN: emu.credentials.logsToken,
    UPSTASH_EMAIL: emu.credentials.email,
    UPSTASH_API_KEY: emu.credentials.apiKey,
  };
}

/** Connects the SDK's client to a new server process with `flags`, against `emu`. */
export async function connect(
  emu: Emulator,
  flags: readonly string[] = [],
  capabilities: ClientCapabilities = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--base-url", emu.url, ...flags],
    env: { PATH: process.env["PATH"] ?? "", ...credentialsEnv(emu) },
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities });
  await client.connect(transport);
  return client;
}

/**
 * Registers an emulator for the test file (started once, reset before each test, closed at the end)
 * and returns its handles once it runs: the emulator and a management client on its account.
 */
export function useEmulator(options: EmulatorOptions = {}) {
  const handles = {} as { emu: Emulator; m: ManagementClient };
  beforeAll(async () => {
    handles.emu = await startEmulator({ port: 0, ...options });
    handles.m = createManagementClient({
      email: handles.emu.credentials.email,
      apiKey: handles.emu.credentials.apiKey,
      baseUrl: handles.emu.url,
    });
  });
  beforeEach(() => handles.emu.reset());
  afterAll(() => handles.emu.close());
  return handles;
}

/** The text of a tool result's first block. */
export function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content[0]?.text ?? "";
}

/** The four annotations every tool must declare. */
export const ANNOTATIONS = [
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
] as const;

/** `tool.annotation` for each of the four annotations a tool leaves out or gives a non-boolean. */
export function missingAnnotations(tools: readonly Tool[]): string[] {
  return tools.flatMap((t) =>
    ANNOTATIONS.filter((a) => typeof t.annotations?.[a] !== "boolean").map((a) => `${t.name}.${a}`),
  );
}
