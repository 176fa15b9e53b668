// Packs the public packages as `pnpm publish` would (workspace ranges rewritten, `files` applied), so
// checks and tests see exactly what a user installs.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository this script belongs to. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The folders under `packages/` of the packages published to npm. */
export const PUBLIC_PACKAGES = [
  "core",
  "logs-client",
  "management-client",
  "emulator",
  "cli",
  "otel",
  "rate-limit-redis",
  "mcp",
];

/**
 * Runs `pnpm pack` in `packages/<name>` and returns the path of the tarball, written into
 * `<dest>/<name>/`. The package must be built (`dist/`).
 * @param {string} name
 * @param {string} dest
 * @returns {string}
 */
export function packPackage(name, dest) {
  const out = join(dest, name);
  mkdirSync(out, { recursive: true });
  const { status, stderr, error } = spawnSync("pnpm", ["pack", "--pack-destination", out], {
    cwd: join(REPO_ROOT, "packages", name),
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
  });
  const tarballs = readdirSync(out).filter((file) => file.endsWith(".tgz"));
  if (status !== 0 || tarballs.length !== 1) {
    throw new Error(`pnpm pack of @api-clients/${name} failed: ${error?.message ?? stderr}`);
  }
  return join(out, tarballs[0]);
}

/**
 * Packs every public package into `dest`.
 * @param {string} dest
 * @returns {Record<string, string>} tarball path by package folder name
 */
export function packAll(dest) {
  return Object.fromEntries(PUBLIC_PACKAGES.map((name) => [name, packPackage(name, dest)]));
}
