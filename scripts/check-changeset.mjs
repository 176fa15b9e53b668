#!/usr/bin/env node
// `pnpm check:changeset`: a change consumers see carries a changeset. Compared with the base branch
// (`CHANGESET_BASE`, default `main`, else `origin/main`; from their merge base), a change to a spec
// (`specs/*.openapi.yaml`) or to a package's API report (`packages/*/api/*.api.md`, `pnpm api:report`)
// fails unless the same diff adds a changeset (`.changeset/*.md`). Without a base to compare with (a
// clone of one branch) it says so and passes.
//
//   node scripts/check-changeset.mjs [base]
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "./lib/pack.mjs";
import { changesetBase } from "./lib/release-base.mjs";

const git = (...args) =>
  spawnSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).stdout?.trim() ?? "";

/** Files a diff changes that need a changeset, and whether it adds one. */
export function needsChangeset(files, added) {
  const watched = files.filter(
    (file) =>
      /^specs\/[^/]+\.ya?ml$/.test(file) || /^packages\/[^/]+\/api\/[^/]+\.api\.md$/.test(file),
  );
  const changeset = added.some(
    (file) => /^\.changeset\/[^/]+\.md$/.test(file) && !file.endsWith("README.md"),
  );
  return { watched, changeset };
}

function main() {
  const found = changesetBase(REPO_ROOT, process.argv[2] ?? process.env.CHANGESET_BASE);
  const base = found?.ref;
  const mergeBase = found?.commit;
  if (mergeBase === undefined) {
    console.log("check:changeset: no base branch to compare with (main, origin/main); skipped");
  } else {
    // The working tree counts too: a change not committed yet needs its changeset as well.
    const files = git("diff", "--name-only", mergeBase).split("\n").filter(Boolean);
    const untracked = git("ls-files", "--others", "--exclude-standard").split("\n").filter(Boolean);
    const added = [
      ...git("diff", "--name-only", "--diff-filter=A", mergeBase).split("\n"),
      ...untracked,
    ].filter(Boolean);
    const { watched, changeset } = needsChangeset([...files, ...untracked], added);
    if (watched.length > 0 && !changeset) {
      console.error(
        `check:changeset: ${watched.join(", ")} changed since ${base} without a changeset: run \`pnpm changelog\` (specs) or \`pnpm changeset\`, and commit the file it writes`,
      );
      process.exitCode = 1;
    } else {
      console.log(
        `check:changeset: ${watched.length} spec or API report change(s) since ${base}${watched.length > 0 ? ", with a changeset" : ""}`,
      );
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
