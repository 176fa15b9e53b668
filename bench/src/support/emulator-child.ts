// The emulator, run in a child process (see servers/emulator-server.ts), and its admin API.
import { spawnReady, srcFile, tsNodeArgs, type ReadyChild } from "./child.js";

/** What the emulator child reports when it listens. */
export interface EmulatorInfo {
  url: string;
  credentials: { logsToken: string; email: string; apiKey: string };
}

/** A running emulator child with the few admin calls the bench needs. */
export interface EmulatorChild extends EmulatorInfo {
  /** How many log entries it was seeded with. */
  readonly seedLogs: number;
  /** Adds a fault rule (`POST /__emulator/faults`). */
  addFault(rule: Record<string, unknown>): Promise<void>;
  /** Removes every fault rule. */
  clearFaults(): Promise<void>;
  /** Stops the child. */
  stop(): Promise<void>;
}

async function admin(url: string, method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${url}/__emulator/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.text();
  if (!res.ok) throw new Error(`emulator admin ${method} ${path}: status ${res.status}`);
}

/** Starts the emulator with `seedLogs` generated entries in its own process (a 1M seed takes ~2 s). */
export async function startEmulatorChild(seedLogs: number): Promise<EmulatorChild> {
  const child: ReadyChild<EmulatorInfo> = await spawnReady<EmulatorInfo>(
    process.execPath,
    [...tsNodeArgs(srcFile("servers/emulator-server.ts")), String(seedLogs)],
    { timeoutMs: 120_000 },
  );
  const { url, credentials } = child.info;
  return {
    url,
    credentials,
    seedLogs,
    addFault: (rule) => admin(url, "POST", "faults", rule),
    clearFaults: () => admin(url, "DELETE", "faults"),
    stop: () => child.stop(),
  };
}
