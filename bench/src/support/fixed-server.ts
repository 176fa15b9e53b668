// The fixed-response server (servers/fixed-response-server.ts), run in a child process, and its script.
import { spawnReady, srcFile, tsNodeArgs } from "./child.js";

/** One scripted fault: a status (with an optional `Retry-After`), or a dropped connection. */
export type ScriptedFault = { status: number; retryAfter?: string | number } | { reset: true };

/** A running fixed-response server. */
export interface FixedServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Answers the next requests with `faults`, in order (then normally), and resets the counter. */
  setFaults(faults: readonly ScriptedFault[]): Promise<void>;
  /** API requests the server received since the last {@link FixedServer.setFaults}. */
  requests(): Promise<number>;
  /** Stops the child. */
  stop(): Promise<void>;
}

/** Starts the fixed-response server in its own process. */
export async function startFixedServer(): Promise<FixedServer> {
  const child = await spawnReady<{ url: string }>(
    process.execPath,
    tsNodeArgs(srcFile("servers/fixed-response-server.ts")),
    { timeoutMs: 30_000 },
  );
  const { url } = child.info;
  return {
    url,
    async setFaults(faults) {
      const res = await fetch(`${url}/__bench/faults`, {
        method: "POST",
        body: JSON.stringify(faults),
      });
      await res.text();
      if (!res.ok) throw new Error(`fixed server: setting faults answered ${res.status}`);
    },
    async requests() {
      const res = await fetch(`${url}/__bench/count`);
      const body = (await res.json()) as { requests: number };
      return body.requests;
    },
    stop: () => child.stop(),
  };
}
