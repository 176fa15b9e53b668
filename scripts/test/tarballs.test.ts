// Every public package installs alone from its `pnpm pack:tarballs` line: the packages are found in
// `packages/*/package.json` (not private), packed as `pnpm publish` would, and each line is run with npm
// in an empty project of its own, with the `@api-clients` scope pointed at a node:http registry on
// 127.0.0.1 that has none of them (404, as the public registry before a release), so any
// `@api-clients/*` package the line forgot fails the install instead of coming from a registry.
// Third-party dependencies (openapi-fetch, commander, ioredis, …) come from npm as usual (its cache when
// warm). Then the package is imported in that project.
//
//   pnpm exec vitest run scripts/test/tarballs.test.ts   (after `pnpm build`)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv } from "../lib/clean-env.mjs";
import {
  installLines,
  manifestOf,
  packAll,
  PUBLIC_PACKAGES,
  REPO_ROOT,
  withWorkspaceDependencies,
} from "../lib/pack.mjs";

/**
 * Runs a command without blocking this process (its registry answers from here); resolves to its exit
 * code and output, killing it after `timeoutMs`.
 */
function run(command: string, args: string[], cwd: string, timeoutMs: number) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(REPO_ROOT) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

let work = "";
let lines: Record<string, string> = {};
let tarballs: Record<string, string> = {};
/** A registry without any `@api-clients/*` package, and what npm asked it for. */
let registry: Server;
let emptyRegistry = "";
const asked: string[] = [];

beforeAll(async () => {
  for (const folder of PUBLIC_PACKAGES) {
    if (!existsSync(join(REPO_ROOT, "packages", folder, "dist"))) {
      throw new Error(`packages/${folder}/dist is missing: run \`pnpm build\` first`);
    }
  }
  work = mkdtempSync(join(tmpdir(), "tarballs-"));
  tarballs = packAll(join(work, "tarballs"));
  lines = installLines(tarballs);
  registry = createServer((req, res) => {
    asked.push(decodeURIComponent(req.url ?? ""));
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  const { port } = registry.address() as { port: number };
  emptyRegistry = `http://127.0.0.1:${port}/`;
}, 300_000);

afterAll(async () => {
  if (registry) await new Promise((resolve) => registry.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("pnpm pack:tarballs: one install line per public package, found in packages/*", () => {
  it("finds the public packages from their manifests", () => {
    expect(PUBLIC_PACKAGES).toEqual(expect.arrayContaining(["core", "logs-client", "cli"]));
    for (const folder of PUBLIC_PACKAGES) expect(manifestOf(folder).private).not.toBe(true);
    expect(Object.keys(lines).sort()).toEqual([...PUBLIC_PACKAGES].sort());
  });

  it("each line names absolute paths: the package's tarball and those of its @api-clients deps", () => {
    expect(withWorkspaceDependencies("cli")).toEqual([
      "cli",
      "core",
      "logs-client",
      "management-client",
    ]);
    for (const [folder, line] of Object.entries(lines)) {
      const paths = line.replace(/^npm install /, "").split(" ");
      expect(paths.every((p) => p.startsWith("/") && p.endsWith(".tgz"))).toBe(true);
      expect(paths).toEqual(withWorkspaceDependencies(folder).map((dep: string) => tarballs[dep]));
    }
  });

  it.each(PUBLIC_PACKAGES)(
    "@api-clients/%s installs alone into an empty project and imports",
    async (folder) => {
      const name = manifestOf(folder).name as string;
      const project = join(work, `project-${folder}`);
      mkdirSync(project);
      writeFileSync(
        join(project, "package.json"),
        JSON.stringify({ name: "alone", private: true, type: "module" }),
      );
      const args = lines[folder]!.replace(/^npm /, "").split(" ");
      const install = await run(
        "npm",
        [
          ...args,
          "--no-audit",
          "--no-fund",
          "--prefer-offline",
          "--loglevel=error",
          `--@api-clients:registry=${emptyRegistry}`,
        ],
        project,
        170_000,
      );
      expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
      // Whatever npm asked the scope's registry, it found nothing there: all came from the line.
      expect(asked.every((path) => path.startsWith("/@api-clients/"))).toBe(true);
      const imported = await run(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const m = await import(${JSON.stringify(name)}); console.log(Object.keys(m).length);`,
        ],
        project,
        60_000,
      );
      expect(imported.stderr).toBe("");
      expect(Number(imported.stdout.trim())).toBeGreaterThan(0);
      expect(imported.status).toBe(0);
    },
  );
});
