#!/usr/bin/env node
// `pnpm changelog [--base <ref>]`: writes the changesets for the spec changes since the last release
// (the newest `@api-clients/*@x.y.z` tag, else the branch point `check:changeset` uses), one file per
// affected package (`.changeset/changelog-<package>.md`), naming each changed operation and field
// with the bump `check:breaking` decides. Running it again for the same diff changes nothing; after
// a further spec change it rewrites those files (edit their wording after the last run).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { changesets, methodNames } from "./lib/changelog.mjs";
import { REPO_ROOT } from "./lib/pack.mjs";
import { SPEC_CLIENTS, releaseBase } from "./lib/release-base.mjs";

const git = (...args) => spawnSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" });

const { values } = parseArgs({ options: { base: { type: "string" } } });
const base = values.base
  ? {
      ref: values.base,
      commit: git("rev-parse", "--verify", `${values.base}^{commit}`).stdout.trim(),
    }
  : releaseBase(REPO_ROOT);
if (base === undefined || base.commit === "") {
  console.error(
    `changelog: no base to compare with (${values.base ?? "no @api-clients/* tag, main or origin/main"}); pass --base <ref>`,
  );
  process.exit(1);
}

const specs = Object.keys(SPEC_CLIENTS);
const changed = [
  ...git("diff", "--name-only", base.commit, "--", ...specs).stdout.split("\n"),
  ...git("ls-files", "--others", "--exclude-standard", "--", ...specs).stdout.split("\n"),
].filter(Boolean);
const before = {};
const after = {};
for (const spec of specs) {
  const old = git("show", `${base.commit}:${spec}`);
  before[spec] = old.status === 0 ? parse(old.stdout) : undefined;
  const path = join(REPO_ROOT, spec);
  after[spec] = existsSync(path) ? parse(readFileSync(path, "utf8")) : undefined;
}

const files = changesets({
  root: REPO_ROOT,
  before,
  after,
  changed,
  names: methodNames(REPO_ROOT),
  base: base.ref,
});
const dir = join(REPO_ROOT, ".changeset");
mkdirSync(dir, { recursive: true });
const wanted = new Set(files.map((f) => f.file));
// Files an earlier run wrote for a diff that has since changed or gone: this run's files replace them.
for (const stale of readdirSync(dir).filter(
  (f) => /^changelog-.+\.md$/.test(f) && !wanted.has(f),
)) {
  rmSync(join(dir, stale));
  console.log(`changelog: removed .changeset/${stale} (no spec change for it since ${base.ref})`);
}
for (const { file, pkg, bump, text } of files) {
  const path = join(dir, file);
  const had = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  if (had === text) {
    console.log(`changelog: .changeset/${file} (${pkg}: ${bump}) is up to date`);
    continue;
  }
  writeFileSync(path, text);
  console.log(
    `changelog: ${had === undefined ? "wrote" : "rewrote"} .changeset/${file} (${pkg}: ${bump})`,
  );
}
if (files.length === 0)
  console.log(`changelog: no spec changed since ${base.ref}; nothing to write`);
