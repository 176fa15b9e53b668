import { startEmulator, type Emulator, type EmulatorOptions } from "@api-clients/emulator";
import { createManagementClient, type ManagementClient } from "@api-clients/management-client";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** The flags and environment that point `api-clients` at an emulator with its credentials. */
export function target(emu: Emulator) {
  return {
    base: ["--base-url", emu.url],
    env: {
      QSTASH_TOKEN: emu.credentials.logsToken,
      UPSTASH_EMAIL: emu.credentials.email,
      UPSTASH_API_KEY: emu.credentials.apiKey,
    },
  };
}

/** What identifies a log entry in these tests: a message's state at a time. */
export const entryKey = (e: { time: unknown; messageId: unknown; state: unknown }) =>
  `${String(e.time)}|${String(e.messageId)}|${String(e.state)}`;

/**
 * Registers an emulator for the test file (started once, reset before each test, closed at the end)
 * and returns its handles, set once it runs: the emulator, the CLI's flags and environment for it, and
 * a management client on its first account.
 */
export function useEmulator(options: EmulatorOptions = {}) {
  const handles = {} as { emu: Emulator; cli: ReturnType<typeof target>; m: ManagementClient };
  beforeAll(async () => {
    handles.emu = await startEmulator({ port: 0, ...options });
    handles.cli = target(handles.emu);
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
