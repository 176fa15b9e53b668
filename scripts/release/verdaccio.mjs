#!/usr/bin/env node
// A throw-away npm registry on 127.0.0.1 (Verdaccio 6) for rehearsing a release: no uplinks, storage in a
// temporary folder, anyone may publish. Verdaccio stays out of the workspace's dependencies: it is
// installed on first use into `.tools/verdaccio/` (gitignored) together with the Node 22 it needs (from
// the `node` package), and reused while its manifest is unchanged.
//
//   node scripts/release/verdaccio.mjs   start one, print its URL and an .npmrc, stop on Ctrl-C
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureTool } from "../lib/tool-download.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where the registry and its Node are installed. */
export const TOOL_DIR = join(root, ".tools", "verdaccio");

/**
 * The tool folder's manifest. Verdaccio 6 runs on Node ≥ 22 only, and one of its dependencies asks for
 * `node-fetch@cjs`, a dist-tag the registry mirror lacks: the override pins it to the version it names.
 */
const MANIFEST = {
  name: "api-clients-verdaccio-tool",
  private: true,
  description: "Installed by scripts/release/verdaccio.mjs; not part of the workspace.",
  dependencies: { verdaccio: "6.10.4", node: "22.23.3" },
  overrides: { "node-fetch@cjs": "2.7.0" },
};

const nodeBin = join(TOOL_DIR, "node_modules", "node", "bin", "node");
const verdaccioBin = join(TOOL_DIR, "node_modules", "verdaccio", "bin", "verdaccio");

/** Installs Verdaccio and Node 22 into {@link TOOL_DIR} unless the same manifest is already installed. */
export async function ensureVerdaccio() {
  const manifestFile = join(TOOL_DIR, "package.json");
  const want = `${JSON.stringify(MANIFEST, null, 2)}\n`;
  const installed = () =>
    existsSync(nodeBin) &&
    existsSync(verdaccioBin) &&
    existsSync(manifestFile) &&
    readFileSync(manifestFile, "utf8") === want;
  try {
    await ensureTool({
      name: `verdaccio@${MANIFEST.dependencies.verdaccio} and node@${MANIFEST.dependencies.node}`,
      command: "npm",
      args: ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"],
      cwd: TOOL_DIR,
      installed,
      reset: () => {
        mkdirSync(TOOL_DIR, { recursive: true });
        writeFileSync(manifestFile, want);
      },
    });
  } catch (error) {
    rmSync(manifestFile, { force: true }); // the next run tries again
    throw error;
  }
  return { nodeBin, verdaccioBin };
}

/** A free TCP port on 127.0.0.1 (released at once, so another process could take it first: rare). */
async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Preloaded into Verdaccio's process: it exits once its parent is gone (its parent process id changes),
 * so even a test runner killed with SIGKILL leaves no registry running.
 */
const WATCHDOG =
  "data:text/javascript,const parent = process.ppid; " +
  "setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 500).unref();";

const config = (storage) =>
  [
    `storage: ${JSON.stringify(storage)}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(join(storage, "htpasswd"))}`,
    "    max_users: -1",
    "uplinks: {}",
    "packages:",
    '  "**":',
    "    access: $all",
    "    publish: $all",
    "    unpublish: $all",
    "max_body_size: 500mb",
    "web:",
    "  enable: false",
    "log: { type: stdout, format: pretty, level: warn }",
    "",
  ].join("\n");

/**
 * @typedef {object} Registry
 * @property {string} url Base URL with a trailing slash, e.g. `http://127.0.0.1:4873/`.
 * @property {string} npmrc `.npmrc` lines granting a (fake) token for this registry: Verdaccio lets
 *   anyone publish, but npm and pnpm refuse to publish without a token.
 * @property {() => string} output What Verdaccio printed so far.
 * @property {() => Promise<void>} stop Kills Verdaccio and removes its storage.
 */

/**
 * Starts Verdaccio on a free port of 127.0.0.1 and resolves once it answers `/-/ping`.
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<Registry>}
 */
export async function startVerdaccio({ timeoutMs = 30_000 } = {}) {
  const bins = await ensureVerdaccio();
  const storage = mkdtempSync(join(tmpdir(), "verdaccio-"));
  const configFile = join(storage, "config.yaml");
  writeFileSync(configFile, config(join(storage, "storage")));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(
    bins.nodeBin,
    [
      "--import",
      WATCHDOG,
      bins.verdaccioBin,
      "--config",
      configFile,
      "--listen",
      `127.0.0.1:${port}`,
    ],
    { cwd: storage, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } },
  );
  // Also stop it when this process ends without calling stop() (an uncaught error, process.exit()).
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));

  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(storage, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Verdaccio exited with ${child.exitCode}:\n${output}`);
    }
    try {
      const res = await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Verdaccio did not answer on ${url} within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const npmrc = `//127.0.0.1:${port}/:_authToken=throw-away-token\n`;
  return { url, npmrc, output: () => output, stop };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const registry = await startVerdaccio();
  console.log(`Verdaccio at ${registry.url} (Ctrl-C stops it and deletes what was published)`);
  console.log(`.npmrc for publishing to it:\n${registry.npmrc}`);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => void registry.stop().then(() => process.exit(0)));
  }
}
