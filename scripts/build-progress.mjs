#!/usr/bin/env node
// `pnpm start`'s build, visible: runs `turbo run build` (arguments are passed on, e.g. `--filter`) and
// prints a line when it starts, one when each package starts building (`building @api-clients/core`),
// the output of a task only when it is more than pnpm's echo of the script (a compiler error, a
// warning), and a closing line with how many tasks ran, how many were cached and how long it took. On a
// first run the build takes about a minute; before, it printed nothing meanwhile.
//
//   node scripts/build-progress.mjs [turbo arguments]
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const TASK_LINE = /^(\S+?):([\w:-]+): ?(.*)$/;

/**
 * What to print for one line of `turbo run build --output-logs=new-only`: a progress line, the line
 * itself, or nothing (turbo's banner, pnpm's echo of the script, blank lines, cache hits).
 * @param {string} line
 * @returns {{ print?: string, started?: boolean, cached?: boolean }}
 */
export function progressLine(line) {
  const task = TASK_LINE.exec(line);
  if (task) {
    const [, pkg, name, text] = task;
    if (/^cache miss, executing/.test(text)) {
      return { print: `  ${name === "build" ? "building" : name} ${pkg}`, started: true };
    }
    if (/^cache hit/.test(text)) return { cached: true };
    if (text.trim() === "" || text.startsWith("> ")) return {};
    return { print: `${pkg}:${name}: ${text}` };
  }
  // turbo's own lines: the banner and summary are replaced by ours; anything else (an error) stays.
  if (/^\s*$/.test(line) || /^\s*(•|Tasks:|Cached:|Time:)/.test(line)) return {};
  return { print: line };
}

async function main() {
  const started = Date.now();
  console.log("build: building the packages (about a minute on a first run, seconds after)");
  const child = spawn(
    "pnpm",
    ["exec", "turbo", "run", "build", "--output-logs=new-only", ...process.argv.slice(2)],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0" } },
  );
  let tasks = 0;
  let cached = 0;
  const read = (stream, write) =>
    new Promise((resolve) => {
      const lines = createInterface({ input: stream });
      lines.on("line", (line) => {
        const result = progressLine(line);
        if (result.started || result.cached) tasks++;
        if (result.cached) cached++;
        if (result.print !== undefined) write(result.print);
      });
      lines.once("close", resolve);
    });
  const exited = new Promise((resolve) => {
    child.once("error", (error) => {
      console.error(`build: ${error.message}`);
      resolve(1);
    });
    child.once("close", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
  await Promise.all([read(child.stdout, console.log), read(child.stderr, console.error)]);
  const code = await exited;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const what = `${tasks} task${tasks === 1 ? "" : "s"} (${cached} cached) in ${seconds} s`;
  if (code === 0) console.log(`build: done, ${what}`);
  else console.error(`build: failed (exit ${code}), ${what}`);
  process.exitCode = code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
