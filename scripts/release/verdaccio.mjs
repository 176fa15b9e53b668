#!/usr/bin/env node
// A throw-away npm registry on 127.0.0.1 (Verdaccio 6) for rehearsing a release: no uplinks, storage in a
// temporary folder, anyone may publish. Verdaccio stays out of the workspace's dependencies: it is
// downloaded once per machine into the cache of runtimes outside the clone (`~/.cache/api-clients/tools/`,
// scripts/lib/tool-download.mjs `ensureCachedNpmTool`), and runs on the cached Node 22 the Node matrix
// of `pnpm test` uses (scripts/lib/node-binary.mjs).
//
//   node scripts/release/verdaccio.mjs   start one, print its URL and an .npmrc, stop on Ctrl-C
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeBinary } from "../lib/node-binary.mjs";
import { ensureCachedNpmTool } from "../lib/tool-download.mjs";

/**
 * Verdaccio, pinned. Verdaccio 6 runs on Node ≥ 22 only, and one of its dependencies asks for
 * `node-fetch@cjs`, a dist-tag the registry mirror lacks: the override pins it to the version it names.
 */
const VERDACCIO = {
  spec: "verdaccio@6.10.4",
  file: "bin/verdaccio",
  overrides: { "node-fetch@cjs": "2.7.0" },
};

/** Verdaccio and the Node 22 it runs on, from the machine's cache (downloaded into it when missing). */
export async function ensureVerdaccio() {
  const nodeBin = await nodeBinary(22);
  const verdaccioBin = join(await ensureCachedNpmTool(VERDACCIO), VERDACCIO.file);
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
