// emulatorSetup() as vitest calls it: it provides the URL and credentials of an emulator listening
// with the options given, and its teardown closes that emulator.
import { expect, it } from "vitest";
import { emulatorSetup, type ProvidedEmulator } from "../../src/vitest.js";

it("provides a listening emulator's URL and credentials; the teardown closes it", async () => {
  const provided: Record<string, ProvidedEmulator> = {};
  const teardown = await emulatorSetup({ seedLogs: 7, logsToken: "kit-token" })({
    provide: (key, value) => void (provided[key] = value),
  });
  const { url, credentials } = provided["apiClientsEmulator"]!;
  expect(credentials.logsToken).toBe("kit-token");
  const res = await fetch(`${url}/v2/logs?count=100`, {
    headers: { authorization: "Bearer kit-token" },
  });
  expect(((await res.json()) as { events: unknown[] }).events).toHaveLength(7);
  await teardown();
  await expect(fetch(`${url}/__emulator/health`)).rejects.toThrow(TypeError);
});
