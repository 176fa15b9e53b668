// The one way the tests download a tool (Node 22/24 for the test matrix, Bun, Deno, Miniflare,
// playwright-core, Chromium, Verdaccio): what is already installed is reused; otherwise the
// installing command (npm install, apt-get) runs in a process group of its own, bounded in time and
// retried. A line says when a download starts, another every `progressMs` while it runs ("still
// downloading bun@1.4.5 (60 s)"), and the error says which download stalled. On a timeout the whole
// group is killed (npm and every process it started), and so is every download still running when this
// process exits or is stopped by a signal; and a guard at the head of the group kills it when this
// process is gone without a word (SIGKILL): none outlives the run. The downloads of one `pnpm test`
// share one time budget across its processes (TOOL_DOWNLOAD_LEDGER, set by scripts/test.mjs), so a
// slow registry costs the run at most RUN_BUDGET_MS in all, and the ledger tells the run's summary what
// was downloaded, how long it took, and what was reused.
//
// The runtimes (npm packages, `ensureCachedNpmTool`) are downloaded once per machine into a cache outside
// any clone, `$XDG_CACHE_HOME/api-clients/tools/` (else `~/.cache/api-clients/tools/`; `API_CLIENTS_CACHE`
// overrides the `api-clients` folder), and every clone and run reuses them. Concurrent runs (two clones at
// once) are safe: each installs into a folder of its own next to the cache entry and renames it into
// place once complete (an atomic rename on one file system); a run that finds the entry already there
// keeps that one and drops its own.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Per attempt: a tool the tests need is tens of megabytes, minutes even from a slow registry. */
export const DOWNLOAD_TIMEOUT_MS = 3 * 60_000;
export const DOWNLOAD_ATTEMPTS = 2;
const PROGRESS_MS = 30_000;
/** All the download attempts of one `pnpm test` together. */
export const RUN_BUDGET_MS = 20 * 60_000;

/**
 * The entries of a ledger file: one a line, `<milliseconds>\t<outcome>\t<name>`, where the outcome is
 * `downloaded`, `installed` (an install that is not a runtime's download: the consumer project of the
 * runtime test, from local tarballs and npm's own cache), `failed` (an attempt that did not install) or
 * `reused` (found in the cache, 0 ms).
 * @returns {{ ms: number, outcome: string, name: string }[]}
 */
export function readLedger(ledger) {
  let text = "";
  try {
    text = readFileSync(ledger, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [ms = "", outcome = "", ...name] = line.split("\t");
      return { ms: Number(ms) || 0, outcome, name: name.join("\t") };
    });
}

function record(ledger, ms, outcome, name) {
  if (ledger) appendFileSync(ledger, `${ms}\t${outcome}\t${name.replace(/[\t\n]/g, " ")}\n`);
}

/** Milliseconds the attempts recorded in a ledger file took. */
function spent(ledger) {
  return readLedger(ledger).reduce((sum, entry) => sum + entry.ms, 0);
}

/**
 * One line for a run's summary: what was downloaded and how long it took, what the cache had.
 * @param {string} ledger
 */
export function downloadSummary(ledger) {
  const entries = readLedger(ledger);
  const reused = [...new Set(entries.filter((e) => e.outcome === "reused").map((e) => e.name))];
  const attempts = entries.filter((e) => e.outcome === "downloaded" || e.outcome === "failed");
  const installs = entries.filter((e) => e.outcome === "installed");
  const total = attempts.reduce((sum, e) => sum + e.ms, 0);
  const parts = [];
  if (reused.length > 0) parts.push(`${reused.length} reused from the cache (${cacheDir()})`);
  if (installs.length > 0) {
    const ms = installs.reduce((sum, e) => sum + e.ms, 0);
    parts.push(`${installs.map((e) => e.name).join(", ")} installed in ${secondsOf(ms)}`);
  }
  const rest = parts.length > 0 ? `; ${parts.join("; ")}` : "";
  if (attempts.length === 0) return `downloads: none${rest}`;
  const each = attempts.map((e) => `${e.name} ${e.outcome} after ${secondsOf(e.ms)}`).join(", ");
  return `downloads: ${secondsOf(total)} in all (${each})${rest}`;
}

/**
 * The machine's cache folder for this project: `$API_CLIENTS_CACHE`, else
 * `$XDG_CACHE_HOME/api-clients`, else `~/.cache/api-clients`. Outside any clone, so every clone shares it.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function cacheDir(env = process.env) {
  if (env.API_CLIENTS_CACHE) return env.API_CLIENTS_CACHE;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "api-clients");
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
 * @param {"downloaded" | "installed"} [options.outcome] what the ledger calls a success ("installed":
 *   not a runtime's download)
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
  outcome = "downloaded",
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
    const verb = outcome === "installed" ? "installing" : "downloading";
    log(`${verb} ${name} (attempt ${n} of ${attempts}, at most ${secondsOf(bound)})`);
    const started = Date.now();
    const result = await attempt(name, command, args, {
      cwd,
      env,
      timeoutMs: bound,
      progressMs,
      log,
    });
    output = result.output;
    const ms = Date.now() - started;
    const took = secondsOf(ms);
    if (result.timedOut) failures.push(`attempt ${n} stalled: killed after ${took}`);
    else if (result.error) failures.push(`attempt ${n}: ${result.error.message}`);
    else if (result.code !== 0) failures.push(`attempt ${n}: exit ${result.code} after ${took}`);
    else if (!installed()) failures.push(`attempt ${n}: exit 0 after ${took}, yet not installed`);
    else {
      record(ledger, ms, outcome, name);
      log(`${outcome} ${name} (${took})`);
      return "downloaded";
    }
    record(ledger, ms, "failed", name);
    log(`download of ${name} failed: ${failures.at(-1)}`);
  }
  const tail = output.trim() ? `\n${output.trim().split("\n").slice(-20).join("\n")}` : "";
  throw new Error(
    `download of ${name} failed (\`${command} ${args.join(" ")}\`): ${failures.join("; ")}${tail}`,
  );
}

/** Whether a process of this machine runs. */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/** Removes the half-done installs of runs that are gone (killed mid-download); they hold no lock. */
function sweepPartials(tools) {
  let names = [];
  try {
    names = readdirSync(tools);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^\.partial-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) {
      rmSync(join(tools, name), { recursive: true, force: true });
    }
  }
}

/**
 * An npm package (a runtime: `node@22.23.3`, `bun@1.4.5`) from the machine's cache, downloaded into it
 * once with `npm install` (bounded and retried by {@link ensureTool}) when missing. Resolves to the
 * package's folder, `<cache>/tools/<spec>/node_modules/<package>`.
 * @param {object} options
 * @param {string} options.spec `name@version`, pinned
 * @param {string} [options.package] the package whose folder is wanted (default: the spec's name)
 * @param {string} options.file a file of that folder that is there once it is installed
 * @param {Record<string, string>} [options.overrides] npm `overrides` for the install (written into
 *   the install folder's `package.json`), e.g. to pin a dependency whose dist-tag a mirror lacks
 * @param {string} [options.cache] default {@link cacheDir}()
 * @param {NodeJS.ProcessEnv} [options.env]
 * @param {number} [options.deadline]
 * @param {string} [options.ledger]
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<string>}
 */
export async function ensureCachedNpmTool({
  spec,
  package: pkg = spec.replace(/(.)@.*$/, "$1"),
  file,
  overrides,
  cache = cacheDir(),
  ledger = process.env.TOOL_DOWNLOAD_LEDGER ?? "",
  log = (line) => console.error(line),
  ...options
}) {
  const tools = join(cache, "tools");
  const folder = (prefix) => join(prefix, "node_modules", pkg);
  const entry = join(tools, spec.replace(/\//g, "+"));
  if (existsSync(join(folder(entry), file))) {
    record(ledger, 0, "reused", spec);
    log(`${spec}: reused from ${entry} (no download)`);
    return folder(entry);
  }
  mkdirSync(tools, { recursive: true });
  sweepPartials(tools);
  const partial = join(tools, `.partial-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await ensureTool({
      ...options,
      ledger,
      log,
      name: spec,
      command: "npm",
      args: [
        "install",
        "--prefix",
        partial,
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        spec,
      ],
      installed: () => existsSync(join(folder(partial), file)),
      reset: () => {
        rmSync(partial, { recursive: true, force: true });
        if (overrides === undefined) return;
        mkdirSync(partial, { recursive: true });
        writeFileSync(join(partial, "package.json"), JSON.stringify({ private: true, overrides }));
      },
    });
    if (existsSync(entry) && !existsSync(join(folder(entry), file))) {
      // Not a complete install (made by hand, or by an older layout): out of the way, atomically too.
      const stale = `${partial}-stale`;
      try {
        renameSync(entry, stale);
      } catch {
        // another run moved it first
      }
      rmSync(stale, { recursive: true, force: true });
    }
    try {
      renameSync(partial, entry);
    } catch (error) {
      // Another run renamed its own install into place first: both are complete, keep that one.
      if (!existsSync(join(folder(entry), file))) throw error;
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  log(`${spec}: cached in ${entry}`);
  return folder(entry);
}
