// Starts helper processes (servers, the memory probe) running TypeScript through tsx, and talks to them.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** A helper process that printed one JSON line when it was ready. */
export interface ReadyChild<T> {
  /** The JSON the process printed on its first stdout line. */
  readonly info: T;
  /** The process itself. */
  readonly process: ChildProcess;
  /** Stops the process (SIGTERM, then SIGKILL after 2 s) and resolves once it exited. */
  stop(): Promise<void>;
}

/** Absolute path of a file of this package's `src/`, from a path relative to `src/`. */
export function srcFile(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}

/** Node arguments that run a `.ts` file through tsx. */
export function tsNodeArgs(file: string, nodeFlags: readonly string[] = []): string[] {
  return [...nodeFlags, "--import", "tsx", file];
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Stops one child process that this harness started: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 2_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited(child);
  clearTimeout(timer);
}

/**
 * Spawns `command args` and waits (at most `timeoutMs`) for a first stdout line that is JSON; later output
 * is drained. Rejects with the process's stderr if it exits or times out first.
 */
export function spawnReady<T>(
  command: string,
  args: readonly string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<ReadyChild<T>> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? fileURLToPath(new URL("../..", import.meta.url)),
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    if (stderr.length < 20_000) stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stopChild(child);
      reject(new Error(`${why}\n${stderr.trim().slice(-2_000)}`));
    };
    const timer = setTimeout(
      () => fail(`${command} did not report ready within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    child.once("error", (e) => fail(`${command} could not start: ${e.message}`));
    child.once("exit", (code, signal) =>
      fail(`${command} exited (${code ?? signal}) before ready`),
    );
    lines.on("line", (line) => {
      if (settled) return;
      let info: T;
      try {
        info = JSON.parse(line) as T;
      } catch {
        return; // Not the ready line (a banner); keep reading.
      }
      settled = true;
      clearTimeout(timer);
      resolve({ info, process: child, stop: () => stopChild(child) });
    });
  });
}

/** Runs a process to the end (at most `timeoutMs`) and returns its exit code, stdout and stderr. */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: { timeoutMs: number; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd ?? fileURLToPath(new URL("../..", import.meta.url)),
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr?.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopChild(child);
      reject(
        new Error(`${command} ${args.join(" ")}: still running after ${options.timeoutMs} ms`),
      );
    }, options.timeoutMs);
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
