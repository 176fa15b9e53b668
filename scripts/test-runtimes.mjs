#!/usr/bin/env node
// `pnpm test:runtimes`: the clients as a user installs them, in every runtime a consuming service may
// use. Packs the public packages, installs the tarballs into a fresh npm project outside the
// workspace, and runs the same scenario (scripts/runtimes/scenario.mjs: pages of logs, a database
// created, listed and deleted, injected 429 and 503 answered with the typed errors, the tracing
// channels, and off the browser `@api-clients/otel`'s spans) in Node 20 (this one), 22 and 24, Bun,
// Deno, workerd (through Miniflare) and headless Chromium, each against its own emulator on
// 127.0.0.1 (run by this Node process, from the installed tarball).
//
// Node 22 and 24, Bun, Deno, Miniflare (with workerd) and playwright-core come from the npm registry
// (pinned in scripts/lib/runtime-tools.mjs), downloaded once per machine into the cache outside the clone
// (`~/.cache/api-clients/tools/`, see scripts/lib/tool-download.mjs) and reused by every clone, run and
// the Node matrix of `pnpm test`; Chromium is Debian's package (`apt-get install chromium` when
// /usr/bin/chromium is missing and we are root). Each download is bounded and retried
// (scripts/lib/tool-download.mjs), and all of them together get at most DOWNLOAD_BUDGET_MS: a runtime
// whose tool cannot be downloaded in time fails, saying which download stalled.
//
// Prints one line per runtime (version, wall time) and ends with `N passed, N failed`.
//   node scripts/test-runtimes.mjs [--only bun,deno] [--json report.json]
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { cleanEnv } from "./lib/clean-env.mjs";
import { packAll, REPO_ROOT as root } from "./lib/pack.mjs";
import { RUNTIME_TOOLS } from "./lib/runtime-tools.mjs";
import { cacheDir, ensureCachedNpmTool, ensureTool } from "./lib/tool-download.mjs";

const RUNTIMES = ["node", "node22", "node24", "bun", "deno", "workerd", "chromium"];
/** The OpenTelemetry packages the `@api-clients/otel` check installs next to the tarballs. */
const OTEL = [
  "@opentelemetry/api@1.9.1",
  "@opentelemetry/core@2.12.1",
  "@opentelemetry/sdk-trace-base@2.12.1",
];
const CHROMIUM = "/usr/bin/chromium";
const RUN_TIMEOUT_MS = 120_000;
/** All the downloads of one run together (the consumer's dependencies, the tools, Chromium). */
const DOWNLOAD_BUDGET_MS = 15 * 60_000;

const { values: flags } = parseArgs({
  options: { only: { type: "string" }, json: { type: "string" } },
});
const selected = flags.only ? flags.only.split(",").map((name) => name.trim()) : RUNTIMES;
for (const name of selected) {
  if (!RUNTIMES.includes(name)) throw new Error(`unknown runtime ${name}; known: ${RUNTIMES}`);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command to the end; resolves to its exit code and output (stdout, stderr). */
function run(command, args, { cwd, env = cleanEnv(root), timeoutMs = RUN_TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${seconds(timeoutMs)})`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${error.message}` });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const started = Date.now();
const downloads = { env: cleanEnv(root), deadline: started + DOWNLOAD_BUDGET_MS };

/** The folder of a runtime's npm package, from the machine's cache (downloaded into it if missing). */
function tool(name) {
  return ensureCachedNpmTool({ ...downloads, ...RUNTIME_TOOLS[name] });
}

/** Debian's Chromium, installed with apt-get when missing (root only). */
async function chromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  }
  await ensureTool({
    ...downloads,
    env: { ...downloads.env, DEBIAN_FRONTEND: "noninteractive" },
    name: "chromium (apt-get)",
    command: "sh",
    args: ["-c", "apt-get update -qq && apt-get install -y -qq chromium"],
    installed: () => existsSync(CHROMIUM),
  });
  return CHROMIUM;
}

/** The checks a server-side runtime printed as `RESULT <json>`. */
function parseResult({ code, stdout, stderr }) {
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  if (code !== 0 || line === undefined) {
    throw new Error(`exit ${code}, no result:\n${`${stdout}\n${stderr}`.trim().slice(-3000)}`);
  }
  return JSON.parse(line.slice("RESULT ".length));
}

/**
 * Bundles an entry of the consumer project (resolving the installed tarballs) for a web runtime;
 * `external` names imports the runtime provides (workerd's `node:` modules under nodejs_compat).
 */
async function bundle(consumer, entry, outfile, conditions, external = []) {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [join(consumer, entry)],
    outfile: join(consumer, outfile),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions,
    external,
    logLevel: "silent",
  });
}

/** The scenario on a cached Node (`node22`, `node24`); its version names the runtime. */
async function nodeTool(name, consumer, config) {
  const bin = join(await tool(name), "bin", "node");
  const version = (await run(bin, ["--version"])).stdout.trim().replace(/^v/, "");
  const result = await run(bin, ["cli.mjs", JSON.stringify(config)], { cwd: consumer });
  return { version: `${name} ${version}`, checks: parseResult(result) };
}

/** How each runtime runs the scenario; each resolves to `{ version, checks }`. */
const runners = {
  async node(consumer, config) {
    const result = await run(process.execPath, ["cli.mjs", JSON.stringify(config)], {
      cwd: consumer,
    });
    return { version: `node ${process.versions.node}`, checks: parseResult(result) };
  },
  node22: (consumer, config) => nodeTool("node22", consumer, config),
  node24: (consumer, config) => nodeTool("node24", consumer, config),

  async bun(consumer, config) {
    const bin = join(await tool("bun"), "bin", "bun.exe");
    const version = (await run(bin, ["--version"])).stdout.trim();
    const result = await run(bin, ["cli.mjs", JSON.stringify(config)], {
      cwd: consumer,
      env: cleanEnv(root, { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" }),
    });
    return { version: `bun ${version}`, checks: parseResult(result) };
  },

  async deno(consumer, config) {
    const bin = join(await tool("deno"), "deno");
    const env = cleanEnv(root, {
      DENO_DIR: join(cacheDir(), "deno-dir"),
      DENO_NO_UPDATE_CHECK: "1",
    });
    const version = /deno (\S+)/.exec((await run(bin, ["--version"], { env })).stdout)?.[1];
    const args = ["run", "--quiet", "--allow-net=127.0.0.1", "--allow-read", "--allow-env"];
    const result = await run(bin, [...args, "cli.mjs", JSON.stringify(config)], {
      cwd: consumer,
      env,
    });
    return { version: `deno ${version}`, checks: parseResult(result) };
  },

  async workerd(consumer, config) {
    const dir = await tool("miniflare");
    const { Miniflare } = await import(pathToFileURL(join(dir, "dist", "src", "index.js")).href);
    const workerd = JSON.parse(
      readFileSync(join(dir, "..", "workerd", "package.json"), "utf8"),
    ).version;
    const miniflare = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
    await bundle(
      consumer,
      "worker.mjs",
      "worker.bundle.js",
      ["workerd", "worker", "browser"],
      ["node:*"],
    );
    const mf = new Miniflare({
      modules: true,
      scriptPath: join(consumer, "worker.bundle.js"),
      modulesRoot: consumer,
      compatibilityDate: "2026-04-01",
      // As Workers that use Node APIs run: process.getBuiltinModule, diagnostics_channel (tracing).
      compatibilityFlags: ["nodejs_compat"],
      bindings: { CONFIG: JSON.stringify(config) },
      // No request.cf: Miniflare would download it.
      cf: false,
    });
    try {
      const response = await mf.dispatchFetch("http://runtimes.test/");
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`the worker answered ${response.status}: ${text}`);
      return { version: `workerd ${workerd} (Miniflare ${miniflare})`, checks: JSON.parse(text) };
    } finally {
      await mf.dispose();
    }
  },

  async chromium(consumer, config) {
    const executablePath = await chromium();
    const { chromium: launcher } = await import(
      pathToFileURL(join(await tool("playwright-core"), "index.mjs")).href
    );
    await bundle(consumer, "browser.mjs", "browser.js", ["browser"]);
    // The page comes from its own server: another origin than the emulator's, as in development.
    const types = { ".html": "text/html", ".js": "text/javascript" };
    const server = createServer((req, res) => {
      const file = { "/": "index.html", "/browser.js": "browser.js" }[req.url ?? ""];
      // 204 for the favicon: a 404 would add noise to the console that failures print.
      if (file === undefined)
        return void res.writeHead(req.url === "/favicon.ico" ? 204 : 404).end();
      res.writeHead(200, { "content-type": `${types[extname(file)]}; charset=utf-8` });
      res.end(readFileSync(join(consumer, file)));
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    let browser;
    try {
      browser = await launcher.launch({
        executablePath,
        headless: true,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      const page = await browser.newPage();
      const messages = [];
      page.on("console", (message) => messages.push(`${message.type()}: ${message.text()}`));
      page.on("pageerror", (error) => messages.push(`pageerror: ${error.message}`));
      const { port } = server.address();
      await page.goto(`http://127.0.0.1:${port}/#${encodeURIComponent(JSON.stringify(config))}`);
      try {
        await page.waitForFunction(() => window.__runtimeResult !== undefined, null, {
          timeout: 60_000,
        });
      } catch (error) {
        throw new Error(`no result from the page (${error.message}):\n${messages.join("\n")}`);
      }
      const checks = await page.evaluate(() => window.__runtimeResult);
      // The browser says why a request failed (CORS, mixed content) only on its console.
      return { version: `chromium ${browser.version()}`, checks, console: messages };
    } finally {
      await browser?.close();
      server.close();
    }
  },
};

const work = mkdtempSync(join(tmpdir(), "test-runtimes-"));
const report = [];
try {
  // A fresh consumer project: the tarballs from npm's point of view, plus their registry deps.
  const tarballs = packAll(join(work, "tarballs"));
  const consumer = join(work, "consumer");
  cpSync(join(root, "scripts", "runtimes"), consumer, { recursive: true });
  writeFileSync(
    join(consumer, "package.json"),
    `${JSON.stringify({ name: "runtimes-consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  const args = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  await ensureTool({
    ...downloads,
    name: "the packed tarballs and their dependencies",
    outcome: "installed",
    command: "npm",
    args: [...args, ...Object.values(tarballs), ...OTEL],
    cwd: consumer,
    installed: () => existsSync(join(consumer, "node_modules", "@api-clients", "emulator")),
  });
  console.log(
    `runtimes: consumer project installed from the packed tarballs (${seconds(Date.now() - started)})`,
  );

  const installed = (pkg) =>
    pathToFileURL(join(consumer, "node_modules", "@api-clients", pkg, "dist", "index.js")).href;
  const { startEmulator } = await import(installed("emulator"));
  const { FAULTS, SEED_LOGS } = await import(pathToFileURL(join(consumer, "scenario.mjs")).href);

  for (const name of selected) {
    const began = Date.now();
    const emulator = await startEmulator({ seedLogs: SEED_LOGS });
    const entry = { name, version: name, ok: false, ms: 0, checks: [], error: undefined };
    try {
      // Faults through the admin HTTP API, as any test setup in another language would add them.
      const added = await fetch(`${emulator.url}/__emulator/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(FAULTS),
      });
      if (!added.ok) throw new Error(`POST /__emulator/faults answered ${added.status}`);
      const { logsToken, email, apiKey } = emulator.credentials;
      const config = { baseUrl: emulator.url, logsToken, email, apiKey };
      const { version, checks, console: messages = [] } = await runners[name](consumer, config);
      const ok = checks.length > 0 && checks.every((c) => c.ok);
      Object.assign(entry, { version, checks, ok });
      if (!ok && messages.length > 0) entry.error = `console:\n${messages.join("\n")}`;
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
    } finally {
      await emulator.close();
      entry.ms = Date.now() - began;
    }
    report.push(entry);
    const passedChecks = entry.checks.filter((c) => c.ok).length;
    console.log(
      `  ${entry.ok ? "✓" : "✗"} ${entry.version.padEnd(48)} ${`${passedChecks}/${entry.checks.length} checks`.padEnd(12)} ${seconds(entry.ms).padStart(7)}`,
    );
    for (const check of entry.checks.filter((c) => !c.ok)) {
      console.log(`      ✗ ${check.name}: ${check.detail}`);
    }
    if (entry.error) console.log(entry.error.replace(/^/gm, "      "));
  }
} catch (error) {
  const why = error instanceof Error ? error.message : String(error);
  console.error(`runtimes: ${why}`);
  for (const name of selected.filter((n) => !report.some((r) => r.name === n))) {
    report.push({ name, version: name, ok: false, ms: 0, checks: [], error: `not run: ${why}` });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const passed = report.filter((r) => r.ok).length;
if (flags.json) writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(`runtimes: ${seconds(Date.now() - started)} in all`);
console.log(`${passed} passed, ${report.length - passed} failed`);
process.exitCode = passed === report.length ? 0 : 1;
