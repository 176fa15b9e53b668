// The one way the tests download a tool into .tools/ (Node 22/24 for the test matrix, Bun, Deno,
// Miniflare, playwright-core, Chromium, Verdaccio): what is already installed is reused; otherwise the
// installing command (npm install, apt-get) runs in a process group of its own, bounded in time and
// retried. A line says when a download starts, another every `progressMs` while it runs ("still
// downloading bun@1.4.5 (60 s)"), and the error says which download stalled. On a timeout the whole
// group is killed (npm and every process it started), and so is every download still running when this
// process exits or is stopped by a signal; and a guard at the head of the group kills it when this
// process is gone without a word (SIGKILL): none outlives the run. The downloads of one `pnpm test`
// share one time budget across its processes (TOOL_DOWNLOAD_LEDGER, set by scripts/test.mjs), so a
// slow registry costs the run at most RUN_BUDGET_MS in all.
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";

/** Per attempt: a tool the tests need is tens of megabytes, minutes even from a slow registry. */
export const DOWNLOAD_TIMEOUT_MS = 3 * 60_000;
export const DOWNLOAD_ATTEMPTS = 2;
const PROGRESS_MS = 30_000;
/** All the download attempts of one `pnpm test` together. */
export const RUN_BUDGET_MS = 20 * 60_000;

/** Milliseconds the attempts recorded in a ledger file took (one number a line). */
function spent(ledger) {
  try {
    return readFileSync(ledger, "utf8")
      .split("\n")
      .reduce((sum, line) => sum + (Number(line) || 0), 0);
  } catch {
    return 0;
  }
}

/** Process group ids of the downloads running now. */
const running = new Set();

function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone already
  }
}

function killAll() {
  for (const pid of running) killGroup(pid);
}

/** A signal that would end this process ends the downloads too, then this process as it would have. */
function onSignal(signal) {
  killAll();
  running.clear();
  unwatch();
  process.kill(process.pid, signal);
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
function watch() {
  if (running.size > 0) return;
  process.on("exit", killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
function unwatch() {
  if (running.size > 0) return;
  process.off("exit", killAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

const secondsOf = (ms) => `${Math.round(ms / 1000)} s`;

/**
 * Heads the download's process group: runs the command, exits as it does, and kills the whole group
 * once the process that started the download is gone (its parent process id changes).
 */
const GUARD = `
const { spawn } = require("node:child_process");
const [command, ...args] = process.argv.slice(1);
const parent = process.ppid;
const child = spawn(command, args, { stdio: "inherit" });
child.once("error", (error) => { console.error(error.message); process.exit(127); });
child.once("exit", (code, signal) => process.exit(code ?? 128));
setInterval(() => { if (process.ppid !== parent) process.kill(-process.pid, "SIGKILL"); }, 250);
`;

/**
 * One attempt: runs the command in its own process group; resolves to how it ended.
 * @returns {Promise<{ code: number | null, timedOut: boolean, output: string, error?: Error }>}
 */
function attempt(name, command, args, { cwd, env, timeoutMs, progressMs, log }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ["-e", GUARD, command, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    const keep = (chunk) => (output = (output + chunk).slice(-8_000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const pid = child.pid;
    if (pid !== undefined) {
      watch();
      running.add(pid);
    }
    let timedOut = false;
    const progress = setInterval(
      () => log(`still downloading ${name} (${secondsOf(Date.now() - started)})`),
      progressMs,
    );
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid !== undefined) killGroup(pid);
    }, timeoutMs);
    const done = (result) => {
      clearInterval(progress);
      clearTimeout(timer);
      if (pid !== undefined) {
        // Whatever the command left running in its group goes with it.
        killGroup(pid);
        running.delete(pid);
        unwatch();
      }
      resolve({ timedOut, output, ...result });
    };
    child.once("error", (error) => done({ code: null, error }));
    child.once("close", (code) => done({ code }));
  });
}

/**
 * Makes sure a tool is installed: reuses it when `installed()` says so, else runs the installing
 * command, at most `attempts` times, each for at most `timeoutMs` (and never past `deadline`).
 * Rejects with an error naming the download, why each attempt failed and the command's last output.
 * @param {object} options
 * @param {string} options.name what is downloaded, for the progress lines (`bun@1.4.5`)
 * @param {string} options.command
 * @param {string[]} options.args
 * @param {() => boolean} options.installed whether the tool is there and usable
 * @param {() => void} [options.reset] run before each attempt (e.g. removes a half-installed folder)
 * @param {string} [options.cwd]
 * @param {NodeJS.ProcessEnv} [options.env]
 * @param {number} [options.timeoutMs] per attempt, milliseconds
 * @param {number} [options.attempts]
 * @param {number} [options.deadline] epoch milliseconds after which no attempt runs
 * @param {string} [options.ledger] a file shared by the downloads of one run: each attempt adds the
 *   milliseconds it took, and none runs once they reach `runBudgetMs` (default TOOL_DOWNLOAD_LEDGER;
 *   "" for none)
 * @param {number} [options.runBudgetMs]
 * @param {number} [options.progressMs] how often a running download says so
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<"reused" | "downloaded">}
 */
export async function ensureTool({
  name,
  command,
  args,
  installed,
  reset = () => {},
  cwd,
  env = process.env,
  timeoutMs = DOWNLOAD_TIMEOUT_MS,
  attempts = DOWNLOAD_ATTEMPTS,
  deadline = Infinity,
  ledger = process.env.TOOL_DOWNLOAD_LEDGER ?? "",
  runBudgetMs = RUN_BUDGET_MS,
  progressMs = PROGRESS_MS,
  log = (line) => console.error(line),
}) {
  if (installed()) return "reused";
  const failures = [];
  let output = "";
  for (let n = 1; n <= attempts; n++) {
    const left = Math.min(deadline - Date.now(), ledger ? runBudgetMs - spent(ledger) : Infinity);
    if (left <= 0) {
      failures.push("no time left in the run's download budget");
      break;
    }
    const bound = Math.min(timeoutMs, left);
    reset();
    log(`downloading ${name} (attempt ${n} of ${attempts}, at most ${secondsOf(bound)})`);
    const started = Date.now();
    const result = await attempt(name, command, args, {
      cwd,
      env,
      timeoutMs: bound,
      progressMs,
      log,
    });
    output = result.output;
    if (ledger) appendFileSync(ledger, `${Date.now() - started}\n`);
    const took = secondsOf(Date.now() - started);
    if (result.timedOut) failures.push(`attempt ${n} stalled: killed after ${took}`);
    else if (result.error) failures.push(`attempt ${n}: ${result.error.message}`);
    else if (result.code !== 0) failures.push(`attempt ${n}: exit ${result.code} after ${took}`);
    else if (!installed()) failures.push(`attempt ${n}: exit 0 after ${took}, yet not installed`);
    else {
      log(`downloaded ${name} (${took})`);
      return "downloaded";
    }
    log(`download of ${name} failed: ${failures.at(-1)}`);
  }
  const tail = output.trim() ? `\n${output.trim().split("\n").slice(-20).join("\n")}` : "";
  throw new Error(
    `download of ${name} failed (\`${command} ${args.join(" ")}\`): ${failures.join("; ")}${tail}`,
  );
}
