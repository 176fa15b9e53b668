// Where "since the last release" starts, for the release checks and `pnpm changelog`, and which
// packages ship each spec.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The client each spec feeds: its callers see every change to the spec, breaking or not. */
export const SPEC_CLIENTS = {
  "specs/logs.openapi.yaml": "@api-clients/logs-client",
  "specs/management.openapi.yaml": "@api-clients/management-client",
};

/**
 * Packages that embed code generated from every spec (`scripts/generate.mjs` targets on
 * `specs/*.openapi.yaml`): the emulator's routing tables, the CLI's commands, the MCP tools.
 */
export const SPEC_EMBEDDERS = ["@api-clients/emulator", "@api-clients/cli", "@api-clients/mcp"];

const git = (root, ...args) =>
  spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout?.trim() ?? "";

/**
 * The branch point `check:changeset` compares with: the merge base of HEAD and the first of
 * `wanted` (`CHANGESET_BASE`), `main`, `origin/main` that exists. `undefined` without one.
 */
export function changesetBase(root, wanted = process.env.CHANGESET_BASE) {
  const base = [wanted, "main", "origin/main"]
    .filter(Boolean)
    .find((ref) => git(root, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`) !== "");
  const mergeBase = base === undefined ? "" : git(root, "merge-base", "HEAD", base);
  return mergeBase === "" ? undefined : { ref: base, commit: mergeBase };
}

/**
 * The last release: the newest `@api-clients/*@x.y.z` tag reachable from HEAD, else the
 * {@link changesetBase}. `undefined` when there is neither.
 */
export function releaseBase(root) {
  const tag = git(root, "describe", "--tags", "--abbrev=0", "--match", "@api-clients/*");
  if (tag !== "") return { ref: tag, commit: git(root, "rev-parse", `${tag}^{commit}`) };
  return changesetBase(root);
}

/** Whether a package is before 1.0 (semver's 0.x: a minor version may break). */
export function beforeOne(root, name) {
  const manifest = join(root, "packages", name.replace(/^@api-clients\//, ""), "package.json");
  return (
    existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version.startsWith("0.")
  );
}

/**
 * The bump a breaking change needs: major, or minor before 1.0 (how semver's 0.x marks a breaking
 * change; changesets would turn a major one into 1.0.0).
 */
export const breakingBump = (root, name) => (beforeOne(root, name) ? "minor" : "major");
