// The runtimes' cache (scripts/lib/tool-download.mjs `ensureCachedNpmTool`) against a local node:http npm
// registry serving one fake package: the first run downloads it into the cache, a second run (another
// clone, same machine) makes no request and says so, two runs at once both end with one complete entry
// and no half-done folder, and what a killed run left half-done is swept. The summary line says what
// was downloaded and how long it took, or that nothing was.
//
//   pnpm exec vitest run scripts/test/tool-cache.test.ts
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cacheDir, downloadSummary, ensureCachedNpmTool } from "../lib/tool-download.mjs";

const SPEC = "fake-runtime@1.2.3";
let server: Server;
let registry = "";
let tarball: Buffer;
/** Paths the registry was asked for. */
const asked: string[] = [];
let work = "";
let cache = "";
let ledger = "";
let env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  const pkg = mkdtempSync(join(tmpdir(), "fake-runtime-"));
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({ name: "fake-runtime", version: "1.2.3", bin: { "fake-runtime": "bin/run" } }),
  );
  mkdirSync(join(pkg, "bin"));
  writeFileSync(join(pkg, "bin", "run"), "#!/bin/sh\necho fake\n", { mode: 0o755 });
  const file = execFileSync("npm", ["pack", "--silent", "--pack-destination", pkg], { cwd: pkg })
    .toString()
    .trim();
  tarball = readFileSync(join(pkg, file));
  rmSync(pkg, { recursive: true, force: true });
  const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
  server = createServer((req, res) => {
    asked.push(req.url ?? "");
    if (req.url === "/fake-runtime") {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          name: "fake-runtime",
          "dist-tags": { latest: "1.2.3" },
          versions: {
            "1.2.3": {
              name: "fake-runtime",
              version: "1.2.3",
              bin: { "fake-runtime": "bin/run" },
              dist: { tarball: `${registry}/fake-runtime/-/fake-runtime-1.2.3.tgz`, integrity },
            },
          },
        }),
      );
    } else if (req.url === "/fake-runtime/-/fake-runtime-1.2.3.tgz") {
      res.end(tarball);
    } else {
      res.writeHead(404).end("{}");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  registry = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "tool-cache-"));
  cache = join(work, "cache");
  ledger = join(work, "ledger");
  // npm's own cache is a fresh folder too: every tarball it installs comes from the registry above.
  env = {
    ...process.env,
    npm_config_registry: registry,
    npm_config_cache: join(work, "npm-cache"),
    npm_config_update_notifier: "false",
  };
  asked.length = 0;
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

const fetchTool = (lines: string[]) =>
  ensureCachedNpmTool({
    spec: SPEC,
    file: "bin/run",
    cache,
    env,
    ledger,
    timeoutMs: 120_000,
    progressMs: 60_000,
    log: (line: string) => lines.push(line),
  });

const tarballRequests = () => asked.filter((url) => url.endsWith(".tgz")).length;

describe("the runtimes' cache (ensureCachedNpmTool)", () => {
  it("downloads once into the cache; a second run makes no request and says so", async () => {
    const first: string[] = [];
    const dir = await fetchTool(first);
    expect(dir).toBe(join(cache, "tools", SPEC, "node_modules", "fake-runtime"));
    expect(readFileSync(join(dir, "bin", "run"), "utf8")).toContain("echo fake");
    expect(tarballRequests()).toBe(1);
    expect(first[0]).toBe(`downloading ${SPEC} (attempt 1 of 2, at most 120 s)`);
    expect(first.at(-1)).toBe(`${SPEC}: cached in ${join(cache, "tools", SPEC)}`);
    // Nothing but the entry is left in the cache.
    expect(readdirSync(join(cache, "tools"))).toEqual([SPEC]);
    expect(downloadSummary(ledger)).toMatch(
      new RegExp(`^downloads: \\d+ s in all \\(${SPEC} downloaded after \\d+ s\\)$`),
    );

    asked.length = 0;
    rmSync(ledger);
    const second: string[] = [];
    expect(await fetchTool(second)).toBe(dir);
    expect(asked).toEqual([]);
    expect(second).toEqual([`${SPEC}: reused from ${join(cache, "tools", SPEC)} (no download)`]);
    expect(downloadSummary(ledger)).toBe(
      `downloads: none; 1 reused from the cache (${cacheDir()})`,
    );
  });

  it("two runs at once both get the tool, and leave one complete entry and no half-done folder", async () => {
    const [a, b] = await Promise.all([fetchTool([]), fetchTool([])]);
    expect(a).toBe(b);
    expect(existsSync(join(a, "bin", "run"))).toBe(true);
    expect(readdirSync(join(cache, "tools"))).toEqual([SPEC]);
  });

  it("sweeps what a killed run left half-done, and replaces an incomplete entry", async () => {
    const tools = join(cache, "tools");
    // A process id no process has (above the kernel's pid_max of 2^22).
    const dead = join(tools, ".partial-9999999-abcd");
    mkdirSync(join(dead, "node_modules"), { recursive: true });
    mkdirSync(join(tools, SPEC, "node_modules"), { recursive: true });
    const dir = await fetchTool([]);
    expect(existsSync(join(dir, "bin", "run"))).toBe(true);
    expect(readdirSync(tools)).toEqual([SPEC]);
  });

  it("the cache is $API_CLIENTS_CACHE, else $XDG_CACHE_HOME/api-clients, else ~/.cache/api-clients", () => {
    expect(cacheDir({ API_CLIENTS_CACHE: "/c", XDG_CACHE_HOME: "/x", HOME: "/h" })).toBe("/c");
    expect(cacheDir({ XDG_CACHE_HOME: "/x" })).toBe("/x/api-clients");
    expect(cacheDir({})).toMatch(/\/\.cache\/api-clients$/);
  });
});
