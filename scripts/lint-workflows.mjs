#!/usr/bin/env node
// `pnpm lint:workflows [dir]`: validates every GitHub Actions workflow (`.github/workflows/*.yml`, or
// those of `dir`) against the workflow schema with action-validator (the `@action-validator/cli` npm
// package, pinned in package.json); exits 1 naming each file that fails, with the validator's reasons.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT } from "./lib/pack.mjs";

const dir = process.argv[2] ?? join(REPO_ROOT, ".github", "workflows");
const files = existsSync(dir)
  ? readdirSync(dir)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .map((name) => join(dir, name))
  : [];
const validator = join(REPO_ROOT, "node_modules", ".bin", "action-validator");
const failed = [];
for (const file of files) {
  const result = spawnSync(validator, [file], { encoding: "utf8" });
  if (result.status !== 0) {
    failed.push(file);
    console.error(`lint:workflows: ${relative(REPO_ROOT, file)} is not a valid workflow:`);
    console.error(`${result.stdout}${result.stderr}${result.error?.message ?? ""}`.trim());
  }
}
if (files.length === 0) {
  console.error(`lint:workflows: no workflow in ${relative(REPO_ROOT, dir) || dir}`);
  process.exitCode = 1;
} else if (failed.length > 0) {
  process.exitCode = 1;
} else {
  console.log(`lint:workflows: ${files.length} workflows valid`);
}
