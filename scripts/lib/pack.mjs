// Packs the public packages as `pnpm publish` would (workspace ranges rewritten, `files` applied), so
// checks and tests see exactly what a user installs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository this script belongs to. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The manifest of `packages/<folder>/package.json`. */
export function manifestOf(folder) {
  return JSON.parse(readFileSync(join(REPO_ROOT, "packages", folder, "package.json"), "utf8"));
}

/**
 * The folders under `packages/` of the packages published to npm: every one with a `package.json` that
 * is not `private`, found on each run (a new package is included without a list to update), sorted.
 */
export const PUBLIC_PACKAGES = readdirSync(join(REPO_ROOT, "packages"))
  .filter((folder) => existsSync(join(REPO_ROOT, "packages", folder, "package.json")))
  .filter((folder) => manifestOf(folder).private !== true)
  .sort();

/**
 * The public packages `folder` needs from this workspace, itself first, then every `@api-clients/*`
 * package it depends on (dependencies and peer dependencies, transitively): what `npm install` needs
 * beside it when the registry does not have them.
 * @param {string} folder
 * @returns {string[]} folder names
 */
export function withWorkspaceDependencies(folder) {
  const byName = new Map(PUBLIC_PACKAGES.map((f) => [manifestOf(f).name, f]));
  const found = [folder];
  for (let i = 0; i < found.length; i++) {
    const { dependencies = {}, peerDependencies = {} } = manifestOf(found[i]);
    for (const name of Object.keys({ ...dependencies, ...peerDependencies })) {
      const dep = byName.get(name);
      if (dep !== undefined && !found.includes(dep)) found.push(dep);
    }
  }
  return found;
}

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

/** A path as one shell word: as it is when it is plain, else in single quotes. */
const shellQuote = (path) =>
  /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;

/**
 * One `npm install` line per packed package that installs it alone: its tarball and those of the
 * workspace packages it depends on, as absolute paths, by package folder.
 * @param {Record<string, string>} tarballs absolute tarball path by package folder ({@link packAll})
 * @returns {Record<string, string>}
 */
export function installLines(tarballs) {
  return Object.fromEntries(
    Object.keys(tarballs).map((folder) => [
      folder,
      `npm install ${withWorkspaceDependencies(folder)
        .map((dep) => shellQuote(tarballs[dep]))
        .join(" ")}`,
    ]),
  );
}
