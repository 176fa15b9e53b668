// Runs the built `api-clients` binary (bin/api-clients.js → dist/cli.js) as a subprocess.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/api-clients.js", import.meta.url));
if (!existsSync(fileURLToPath(new URL("../../dist/cli.js", import.meta.url)))) {
  throw new Error("packages/cli/dist is missing: run `pnpm build` first (turbo's test task does)");
}

/** The environment of a run: the test's, without credentials or colour settings, plus `env`. */
export function cliEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of [
    "QSTASH_TOKEN",
    "UPSTASH_EMAIL",
    "UPSTASH_API_KEY",
    "QSTASH_URL",
    "UPSTASH_API_URL",
    "NO_COLOR",
    "FORCE_COLOR",
  ])
    delete base[name];
  return { ...base, ...env };
}

/** The arguments of `logs export` of the last two hours from `baseUrl`, without its progress line, then `more`. */
export const exportArgs = (baseUrl: string, ...more: string[]): string[] => [
  ...["logs", "export", "--base-url", baseUrl, "--from", "2h", "--to", "now", "--no-progress"],
  ...more,
];

/** What a finished run printed and how it exited. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A run in progress: its process and what it printed so far. */
export interface RunningCli {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once the output matches (or rejects after `timeoutMs`). */
  waitFor(test: (stdout: string, stderr: string) => boolean, timeoutMs?: number): Promise<void>;
  done: Promise<CliResult>;
}

/**
 * Resolves once the file at `path` holds more than `bytes` bytes (a started export wrote its first
 * pages); rejects, saying so, after `timeoutMs`.
 */
export async function waitForFile(path: string, bytes: number, timeoutMs = 45_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(existsSync(path) && statSync(path).size > bytes)) {
    if (Date.now() > end)
      throw new Error(`${path} did not grow past ${bytes} bytes in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts `api-clients args…`. */
export function startCli(
  args: readonly string[],
  env: Record<string, string> = {},
  input?: string,
): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cliEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  return track(child, input);
}

/**
 * Runs `api-clients args…` to the end inside `sh -c shell`, where the word `CLI` in `shell` stands for
 * the quoted command: `ulimit -f 200 && exec CLI > out.ndjson` limits and redirects it as a user would.
 */
export function runCliInShell(
  shell: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`);
  const child = spawn("sh", ["-c", shell.replace("CLI", quoted.join(" "))], {
    env: cliEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  return track(child).done;
}

function track(child: ChildProcess, input?: string): RunningCli {
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of waiters) w();
  };
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
    notify();
  });
  child.stderr!.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    notify();
  });
  child.stdin!.end(input ?? "");
  const done = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => {
      notify();
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    done,
    waitFor(test, timeoutMs = 15_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (test(stdout, stderr)) {
            finish();
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            finish();
            reject(
              new Error(
                `api-clients exited (${child.exitCode ?? child.signalCode}) before the output matched.\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new Error(
              `timed out waiting for output.\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`,
            ),
          );
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Runs `api-clients args…` to the end. */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<CliResult> {
  return startCli(args, env, input).done;
}
