/**
 * A real `redis-server` (the Debian package) for the tests: started on a free loopback port with no
 * persistence, stopped after. When the binary is missing the start fails at once with a message that
 * says how to install it (a counted failure, never a hang).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "../../../core/test/support/ports.js";

/** A running redis-server. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing persists). */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

/** Whether `redis-server` is on the PATH. */
export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`redis-server did not start within 10 s: ${out}`));
    }, 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready to accept connections/i.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Starts redis-server on a free loopback port. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!hasRedisServer()) {
    throw new Error(
      "redis-server is not installed: `apt-get install -y redis-server` (.ci/run installs it)",
    );
  }
  const port = await freePort();
  let child = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    async restart() {
      child = await launch(port);
    },
    async stop() {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
}
