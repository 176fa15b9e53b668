// Copies the working tree (tracked files and new files git does not ignore, as they are on disk) into
// another folder and makes it a one-commit git repository, so a release can be rehearsed there
// (`changeset version` rewrites versions and deletes changesets, `changeset publish` tags) without
// touching the real repository.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository this script belongs to. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const git = (cwd, args) =>
  execFileSync(
    "git",
    ["-c", "user.name=release rehearsal", "-c", "user.email=rehearsal@example.invalid", ...args],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );

/**
 * Copies the working tree of {@link REPO_ROOT} into `dest` (which must be empty or missing) and commits
 * it there. Returns the number of files copied.
 * @param {string} dest
 */
export function copyWorkspace(dest) {
  const files = git(REPO_ROOT, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(REPO_ROOT, file)));
  const unique = [...new Set(files)].filter((file) => lstatSync(join(REPO_ROOT, file)).isFile());
  for (const file of unique) {
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(dest, file));
  }
  git(dest, ["init", "-q", "-b", "main"]);
  git(dest, ["add", "-A"]);
  git(dest, ["commit", "-q", "--no-verify", "--no-gpg-sign", "-m", "working tree snapshot"]);
  return unique.length;
}
