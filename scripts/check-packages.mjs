#!/usr/bin/env node
// `pnpm check:packages`: lints every public package as it would be published.
// publint checks package.json against the packed files; attw (Are The Types Wrong) checks that the
// types resolve for ESM importers under node16 and bundler resolution (the packages are ESM only;
// CommonJS callers on Node >= 20.19 load them with require(esm)).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = ["core", "logs-client", "management-client", "emulator", "cli"];

function run(command, args, cwd, { quiet = false } = {}) {
  const { status, stderr } = spawnSync(command, args, {
    cwd,
    stdio: ["ignore", quiet ? "ignore" : "inherit", quiet ? "pipe" : "inherit"],
    encoding: "utf8",
  });
  if (status !== 0 && quiet) process.stderr.write(stderr);
  return status === 0;
}

const packDir = mkdtempSync(join(tmpdir(), "check-packages-"));
const failed = [];
try {
  for (const name of PACKAGES) {
    const dir = join(root, "packages", name);
    console.log(`\n=== @api-clients/${name}`);
    if (!run("pnpm", ["exec", "publint", "--strict"], dir)) failed.push(`${name}: publint`);
    const dest = join(packDir, name);
    if (!run("pnpm", ["pack", "--pack-destination", dest], dir, { quiet: true })) {
      failed.push(`${name}: pack`);
      continue;
    }
    const tarball = join(dest, readdirSync(dest)[0]);
    if (
      !run(
        "pnpm",
        ["exec", "attw", tarball, "--profile", "esm-only", "--format", "table-flipped"],
        root,
      )
    ) {
      failed.push(`${name}: attw`);
    }
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

if (failed.length > 0) {
  console.error(`\ncheck:packages failed: ${failed.join(", ")}`);
  process.exitCode = 1;
} else {
  console.log(`\ncheck:packages: ${PACKAGES.length} packages pass publint and attw`);
}
