// Starts `prism mock` (@stoplight/prism-cli) on one of our specs, on a free 127.0.0.1 port, and stops it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { freePort } from "../../../core/test/support/ports.js";

const PRISM_BIN = fileURLToPath(new URL("../../node_modules/.bin/prism", import.meta.url));

/** A running prism mock server. */
export interface Prism {
  readonly url: string;
  stop(): Promise<void>;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Starts prism on `spec` and resolves once `probePath` answers (any status), within `timeoutMs`;
 * rejects with prism's own error text otherwise (the child is stopped either way). `flags` are
 * prism's options beyond host, port and log level (the contract tests ask for `--errors`).
 */
export async function startPrism(
  spec: string,
  probePath: string,
  timeoutMs: number,
  flags: readonly string[] = ["--errors"],
): Promise<Prism> {
  if (!existsSync(PRISM_BIN)) throw new Error(`prism is not installed (${PRISM_BIN})`);
  const port = await freePort();
  const child = spawn(
    PRISM_BIN,
    ["mock", "-h", "127.0.0.1", "-p", String(port), ...flags, "--verboseLevel", "error", spec],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    if (stderr.length < 4_000) stderr += c;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`prism exited with ${child.exitCode}: ${stderr.trim().slice(0, 500)}`);
    }
    try {
      const res = await fetch(`${url}${probePath}`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      return { url, stop: () => stop(child) };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await stop(child);
  throw new Error(`prism did not answer within ${timeoutMs} ms: ${stderr.trim().slice(0, 500)}`);
}
