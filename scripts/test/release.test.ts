// The whole release loop against a real npm registry on 127.0.0.1: in a copy of the working tree, add a
// changeset, `pnpm version-packages`, `pnpm release` (build, package checks, `changeset publish`) to a
// throw-away Verdaccio; then a fresh npm project outside the workspace installs the public packages from
// it and uses them from ESM, CommonJS and TypeScript (node16 and bundler resolution), against the
// installed emulator. The real repository's versions and changesets are never touched.
//
//   pnpm exec vitest run scripts/test/release.test.ts   (RELEASE_TEST_KEEP=1 keeps the temporary folder)
import { spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv as cleanUserEnv } from "../lib/clean-env.mjs";
import { PUBLIC_PACKAGES } from "../lib/pack.mjs";
import { startVerdaccio } from "../release/verdaccio.mjs";
import { copyWorkspace, REPO_ROOT } from "../release/workspace-copy.mjs";

const PACKAGES = PUBLIC_PACKAGES;
/**
 * What the fresh consumer project installs from the local registry: every public package but
 * `@api-clients/mcp`, whose MCP SDK brings a web server's whole dependency tree (express, hono, …) that
 * this offline registry would have to mirror. `mcp` is still versioned and published here, and its
 * tarball installs alone into an empty project in scripts/test/tarballs.test.ts.
 */
const CONSUMED = PACKAGES.filter((pkg) => pkg !== "mcp");
const STEP_TIMEOUT_MS = 8 * 60_000;
const MARKER = "Release rehearsal of scripts/test/release.test.ts.";

type Registry = Awaited<ReturnType<typeof startVerdaccio>>;
type Manifest = { name: string; version: string; dependencies?: Record<string, string> };

/** The environment of a command run as a user would, in CI mode (see scripts/lib/clean-env.mjs). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanUserEnv(REPO_ROOT, { CI: "true", ...extra });
}

const timings: [string, number][] = [];
const running = new Set<ChildProcess>();

/** Runs a command to the end; rejects with its output when it exits non-zero. */
async function run(
  command: string,
  args: string[],
  {
    cwd,
    env = cleanEnv(),
    stdoutOnly = false,
  }: { cwd: string; env?: NodeJS.ProcessEnv; stdoutOnly?: boolean },
): Promise<string> {
  const started = Date.now();
  // Its own process group, so a command still running when the tests end (a timeout) can be killed
  // with everything it started.
  const child = spawn(command, args, {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  timings.push([`${command} ${args.join(" ")}`, Date.now() - started]);
  if (process.env.RELEASE_TEST_KEEP)
    writeFileSync(join(cwd, "..", `output-${timings.length}.log`), output);
  if (code !== 0) {
    throw new Error(
      `\`${command} ${args.join(" ")}\` in ${cwd} exited with ${code}:\n${output.slice(-8000)}`,
    );
  }
  return stdoutOnly ? stdout : output;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

/** Third-party packages a consumer of ours installs (runtime and type-check), as in the workspace. */
const MIRRORED = [
  "commander",
  "picocolors",
  "openapi-fetch",
  "openapi-typescript-helpers",
  "typescript",
  "@types/node",
  "undici-types",
  // @api-clients/otel's peer dependency.
  "@opentelemetry/api",
  // @api-clients/rate-limit-redis's ioredis and what it depends on.
  "ioredis",
  "@ioredis/commands",
  "cluster-key-slot",
  "debug",
  "ms",
  "denque",
  "redis-errors",
  "redis-parser",
  "standard-as-callback",
  // @api-clients/cli's jq (loaded for --jq) and terminal widths, with what string-width depends on.
  "jq-wasm",
  "string-width",
  "emoji-regex",
  "get-east-asian-width",
  "strip-ansi",
  "ansi-regex",
];

/** `a@1.2.3(peer…)` → [1, 2, 3]: store folders compared by version, not as text (10 > 8). */
const versionOf = (dir: string): number[] =>
  (/@(\d+)\.(\d+)\.(\d+)/.exec(dir.slice(1)) ?? []).slice(1).map(Number);
const newer = (a: string, b: string): number => {
  const [x, y] = [versionOf(a), versionOf(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/** Publishes the workspace's installed copy of each {@link MIRRORED} package to the local registry. */
async function mirrorIntoRegistry(
  registry: Registry,
  userconfig: string,
  scratch: string,
): Promise<void> {
  const store = join(REPO_ROOT, "node_modules", ".pnpm");
  for (const name of MIRRORED) {
    const prefix = `${name.replace("/", "+")}@`;
    const candidates = readdirSync(store).filter((dir) => dir.startsWith(prefix));
    const wanted = (dir: string) => join(store, dir, "node_modules", name);
    // The version the workspace resolves (its root or core's node_modules), else the newest in the store.
    const linked = [
      join(REPO_ROOT, "node_modules", name),
      join(REPO_ROOT, "packages", "core", "node_modules", name),
      join(REPO_ROOT, "packages", "cli", "node_modules", name),
    ]
      .filter((dir) => existsSync(dir))
      .map((dir) => realpathSync(dir));
    const newest = candidates.sort(newer).at(-1);
    const dir = linked[0] ?? (newest === undefined ? undefined : wanted(newest));
    if (dir === undefined) throw new Error(`mirror: ${name} is not in the workspace's pnpm store`);
    // A copy first: the store hard-links identical files, and npm would pack them as link entries
    // that installs then drop (openapi-typescript-helpers lost two of its three .d.ts files).
    const copy = join(scratch, name);
    cpSync(dir, copy, { recursive: true });
    await run(
      "npm",
      [
        "publish",
        copy,
        "--ignore-scripts",
        "--tag",
        "latest",
        "--registry",
        registry.url,
        "--loglevel=error",
      ],
      { cwd: REPO_ROOT, env: cleanEnv({ npm_config_userconfig: userconfig }) },
    );
  }
}

describe("release loop: changeset, version, publish to a local registry, fresh npm consumer", () => {
  let work = "";
  let registry: Registry | undefined;
  const repo = () => join(work, "repo");
  const consumer = () => join(work, "consumer");
  const manifest = (pkg: string) =>
    readJson<Manifest>(join(repo(), "packages", pkg, "package.json"));
  /** Version of every package after the changeset: the next major (it outranks pending changesets). */
  const expected: Record<string, string> = {};

  beforeAll(async () => {
    work = realpathSync(mkdtempSync(join(tmpdir(), "release-loop-")));
    // Install or start the registry while the working tree is copied and installed.
    const [started, copied] = await Promise.allSettled([
      (async () => {
        const began = Date.now();
        const value = await startVerdaccio();
        timings.push([
          "start Verdaccio (from the per-machine cache, downloaded into it on first use)",
          Date.now() - began,
        ]);
        return value;
      })(),
      (async () => {
        copyWorkspace(repo());
        await run("pnpm", ["install", "--prefer-offline", "--no-frozen-lockfile"], { cwd: repo() });
      })(),
    ]);
    if (started.status === "fulfilled") registry = started.value;
    if (started.status === "rejected") throw started.reason;
    if (copied.status === "rejected") throw copied.reason;
  }, STEP_TIMEOUT_MS);

  afterAll(async () => {
    for (const child of running) {
      if (child.pid === undefined) continue;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await registry?.stop();
    // RELEASE_TEST_KEEP=1 keeps the copy and the consumer project for a look (the registry still stops).
    if (process.env.RELEASE_TEST_KEEP) console.log(`release test: kept ${work}`);
    else if (work) rmSync(work, { recursive: true, force: true });
    const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(
      [...timings, ["total of the commands", total] as const]
        .map(([step, ms]) => `${(ms / 1000).toFixed(1).padStart(6)} s  ${step}`)
        .join("\n"),
    );
  }, 60_000);

  it(
    "pnpm version-packages applies the changeset: next major, changelog, User-Agent, changeset consumed",
    async () => {
      for (const pkg of PACKAGES) {
        const major = Number(manifest(pkg).version.split(".")[0]);
        expected[pkg] = `${major + 1}.0.0`;
      }
      const changeset = join(repo(), ".changeset", "release-rehearsal.md");
      writeFileSync(
        changeset,
        `---\n${PACKAGES.map((pkg) => `"@api-clients/${pkg}": major`).join("\n")}\n---\n\n${MARKER}\n`,
      );

      await run("pnpm", ["version-packages"], {
        cwd: repo(),
        env: cleanEnv({ npm_config_prefer_offline: "true" }),
      });

      expect(existsSync(changeset)).toBe(false);
      for (const pkg of PACKAGES) {
        expect(manifest(pkg).version, pkg).toBe(expected[pkg]);
        const changelog = readFileSync(join(repo(), "packages", pkg, "CHANGELOG.md"), "utf8");
        expect(changelog).toContain(`## ${expected[pkg]}`);
        expect(changelog).toContain(MARKER);
      }
      for (const pkg of ["logs-client", "management-client"]) {
        const source = readFileSync(join(repo(), "packages", pkg, "src", "version.ts"), "utf8");
        expect(source).toContain(`"@api-clients/${pkg}/${expected[pkg]}"`);
      }
    },
    STEP_TIMEOUT_MS,
  );

  it(
    "pnpm release builds, checks and publishes every public package, with workspace ranges rewritten",
    async () => {
      const url = registry!.url;
      const userconfig = join(work, "publish.npmrc");
      writeFileSync(userconfig, registry!.npmrc);
      await run("pnpm", ["release"], {
        cwd: repo(),
        env: cleanEnv({ npm_config_registry: url, npm_config_userconfig: userconfig }),
      });

      for (const pkg of PACKAGES) {
        const res = await fetch(`${url}${encodeURIComponent(`@api-clients/${pkg}`)}`);
        expect(res.status, pkg).toBe(200);
        const packument = (await res.json()) as {
          "dist-tags": Record<string, string>;
          versions: Record<string, Manifest>;
        };
        expect(packument["dist-tags"].latest, pkg).toBe(expected[pkg]);
        const published = packument.versions[expected[pkg]!]!;
        for (const [dep, range] of Object.entries(published.dependencies ?? {})) {
          expect(range, `${pkg} → ${dep}`).not.toMatch(/^workspace:/);
          if (dep.startsWith("@api-clients/")) {
            // Core exactly (the other packages use its unversioned internal entry), the rest with ^.
            const version = expected[dep.slice("@api-clients/".length)];
            expect(range).toBe(dep === "@api-clients/core" ? version : `^${version}`);
          }
        }
      }
      const tags = await run("git", ["tag", "--list"], { cwd: repo() });
      for (const pkg of PACKAGES) expect(tags).toContain(`@api-clients/${pkg}@${expected[pkg]}`);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    "a fresh npm project outside the workspace installs them, with one copy of the runtime",
    async () => {
      const fixture = join(REPO_ROOT, "scripts", "release", "consumer");
      mkdirSync(consumer());
      cpSync(fixture, consumer(), { recursive: true });
      const typescript = readJson<Manifest>(
        join(REPO_ROOT, "node_modules", "typescript", "package.json"),
      );
      writeFileSync(
        join(consumer(), "package.json"),
        `${JSON.stringify(
          {
            name: "release-consumer",
            private: true,
            type: "module",
            devDependencies: { typescript: typescript.version, "@types/node": "^20.19.0" },
          },
          null,
          2,
        )}\n`,
      );
      // No network beyond 127.0.0.1: Verdaccio has no uplinks, so the few third-party packages the
      // consumer needs are published into it from the workspace's own pnpm store first.
      await mirrorIntoRegistry(registry!, join(work, "publish.npmrc"), join(work, "mirror"));
      writeFileSync(join(consumer(), ".npmrc"), `registry=${registry!.url}\n`);
      // --prefer-online: metadata cached from an earlier run's registry on the same port is never used.
      const specs = CONSUMED.map((pkg) => `@api-clients/${pkg}@${expected[pkg]}`);
      await run(
        "npm",
        ["install", "--prefer-online", "--no-audit", "--no-fund", "--loglevel=error", ...specs],
        {
          cwd: consumer(),
        },
      );

      for (const pkg of CONSUMED) {
        const installed = readJson<Manifest>(
          join(consumer(), "node_modules", "@api-clients", pkg, "package.json"),
        );
        expect(installed.version, pkg).toBe(expected[pkg]);
      }
      const tree = JSON.parse(
        await run("npm", ["ls", "@api-clients/core", "--all", "--json"], {
          cwd: consumer(),
          stdoutOnly: true,
        }),
      ) as unknown;
      const copies = new Set<string>();
      const walk = (
        node: { version?: string; dependencies?: Record<string, unknown> },
        name = "",
      ) => {
        if (name === "@api-clients/core" && node.version) copies.add(node.version);
        for (const [dep, child] of Object.entries(node.dependencies ?? {}))
          walk(child as never, dep);
      };
      walk(tree as never);
      expect([...copies]).toEqual([expected.core]);
      for (const pkg of ["logs-client", "management-client"]) {
        expect(
          existsSync(join(consumer(), "node_modules", "@api-clients", pkg, "node_modules")),
        ).toBe(false);
        const version = readFileSync(
          join(consumer(), "node_modules", "@api-clients", pkg, "dist", "version.js"),
          "utf8",
        );
        expect(version).toContain(`@api-clients/${pkg}/${expected[pkg]}`);
      }
    },
    STEP_TIMEOUT_MS,
  );

  it("ESM: import, list logs and create a database against the installed emulator", async () => {
    const output = await run(process.execPath, ["main.mjs"], { cwd: consumer() });
    for (const pkg of CONSUMED) {
      expect(output).toContain(`esm: @api-clients/${pkg} from ${consumer()}/node_modules/`);
    }
    expect(output).toContain("esm: listed 10 log entries, next cursor present");
    expect(output).toContain("esm: iterated 25 log entries");
    expect(output).toContain("esm: created database release-check (1 in the account)");
    // The error thrown by the logs client is an instance of the classes the management client exports.
    expect(output).toContain(
      "esm: logs error instanceof management AuthenticationError true, ApiClientError true, same class true",
    );
    expect(output).toContain("esm: otel instrument() around a call, 1 entry, unsubscribed");
    expect(output).toContain("esm: rate-limit-redis fallback, 1 entry, warning true");
  });

  it("CLI: npx api-clients logs list against the installed emulator; a wrong token exits 1 unshown", async () => {
    const output = await run(process.execPath, ["cli.mjs"], { cwd: consumer() });
    expect(output).toContain("cli: exit 0");
    expect(output).toMatch(/^cli: first line TIME\s+STATE/m);
    expect(output).toContain("cli: wrong token exit 1, token shown false");
  });

  it("CommonJS: require() loads the ES modules (Node >= 20.19)", async () => {
    const output = await run(process.execPath, ["main.cjs"], { cwd: consumer() });
    for (const pkg of CONSUMED) {
      expect(output).toContain(`cjs: @api-clients/${pkg} from ${consumer()}/node_modules/`);
    }
    expect(output).toContain("cjs: listed 3 log entries");
    expect(output).toContain("cjs: created database from-require");
    expect(output).toContain("cjs: missing database is an ApiError true with status 404");
  });

  it.each(["node16", "bundler"])(
    "tsc --noEmit type-checks a consumer of both clients and the emulator (%s resolution)",
    async (resolution) => {
      const tsc = join(consumer(), "node_modules", "typescript", "bin", "tsc");
      await run(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], { cwd: consumer() });
    },
    120_000,
  );
});
