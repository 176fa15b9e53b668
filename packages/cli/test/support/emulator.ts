import type { Emulator } from "@api-clients/emulator";

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
