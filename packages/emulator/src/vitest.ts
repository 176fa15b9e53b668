/**
 * `@api-clients/emulator/vitest`: one emulator for a vitest run. `emulatorSetup()` is a global setup
 * that starts it over HTTP and provides its URL and credentials to every test file; `useEmulator()`
 * reads them in a test file and resets the emulator before each test. Needs `vitest` (an optional
 * peer dependency that only this entry point loads).
 */
import { beforeEach, inject } from "vitest";
import { startEmulator, type EmulatorOptions } from "./emulator.js";
import type { ScenarioName, ScenarioOptions } from "./internal/scenarios.js";

/** What {@link emulatorSetup} provides to the test files (vitest's `inject("apiClientsEmulator")`). */
export interface ProvidedEmulator {
  /** Base URL of both APIs and of the admin API, e.g. `http://127.0.0.1:54321`. */
  url: string;
  /** Logs token and the first management account. */
  credentials: { logsToken: string; email: string; apiKey: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The emulator started by `emulatorSetup()` from `@api-clients/emulator/vitest`. */
    apiClientsEmulator: ProvidedEmulator;
  }
}

/** The part of vitest's `TestProject` a global setup uses. */
export interface SetupProject {
  provide(key: "apiClientsEmulator", value: ProvidedEmulator): void;
}

/**
 * A vitest global setup: starts one emulator over HTTP (on 127.0.0.1, a free port) with `options`,
 * provides its URL and credentials, and closes it when the run ends. Export it as the default of the
 * file named in `globalSetup`.
 *
 * @example
 * // test/emulator.setup.ts, named in vitest.config.ts: test: { globalSetup: ["test/emulator.setup.ts"] }
 * import { emulatorSetup } from "@api-clients/emulator/vitest";
 * export default emulatorSetup({ seedLogs: 100 });
 */
export function emulatorSetup(
  options: EmulatorOptions = {},
): (project: SetupProject) => Promise<() => Promise<void>> {
  return async (project) => {
    const emulator = await startEmulator(options);
    project.provide("apiClientsEmulator", { url: emulator.url, credentials: emulator.credentials });
    return () => emulator.close();
  };
}

/** The emulator of the run, as a test file sees it (see {@link useEmulator}). */
export interface TestEmulator extends ProvidedEmulator {
  /** Brings the emulator back to its start (`POST /__emulator/reset`). */
  reset(): Promise<void>;
  /** Starts a named scenario (`POST /__emulator/scenarios`; README, "Scenarios"). */
  scenario(name: ScenarioName, options?: ScenarioOptions): Promise<void>;
}

/**
 * In a test file: the emulator that {@link emulatorSetup} started, reset before each test of the file
 * (`beforeEach`; pass `{ reset: false }` to keep state between tests). One emulator serves the whole
 * run, so files that reset it should not run in parallel (`fileParallelism: false`).
 *
 * @example
 * const emu = useEmulator();
 * it("lists logs", async () => {
 *   const logs = createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url });
 *   await logs.list({ count: 5 });
 * });
 */
export function useEmulator(options: { reset?: boolean } = {}): TestEmulator {
  const provided = inject("apiClientsEmulator");
  if (provided === undefined) {
    throw new Error(
      "useEmulator: no emulator was provided; name a file exporting emulatorSetup() in vitest's globalSetup",
    );
  }
  const admin = async (method: string, path: string, body?: unknown): Promise<void> => {
    const res = await fetch(`${provided.url}/__emulator/${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`emulator ${method} /__emulator/${path}: ${res.status}`);
    await res.body?.cancel();
  };
  const emulator: TestEmulator = {
    url: provided.url,
    credentials: provided.credentials,
    reset: () => admin("POST", "reset"),
    scenario: (name, scenarioOptions = {}) =>
      admin("POST", "scenarios", { name, options: scenarioOptions }),
  };
  if (options.reset !== false) beforeEach(() => emulator.reset());
  return emulator;
}
