#!/usr/bin/env node
// `pnpm check:breaking [ref]`: compares the specs at a git ref (default: the last release tag, else
// HEAD~1) with the working tree, lists the breaking changes, and fails when there are some and no
// pending changeset bumps the affected client to a new major version.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { SPEC_CLIENTS as SPECS, beforeOne as isBeforeOne } from "./lib/release-base.mjs";
import { breakingChanges } from "./lib/spec-diff.mjs";

const root = process.cwd();
function git(...args) {
  return execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
}

function defaultRef() {
  try {
    return git("describe", "--tags", "--abbrev=0", "--match", "@api-clients/*");
  } catch {
    try {
      git("rev-parse", "--verify", "HEAD~1");
      return "HEAD~1";
    } catch {
      return undefined;
    }
  }
}

const beforeOne = (name) => isBeforeOne(root, name);

/**
 * Packages that a pending changeset bumps to a new major version (or, before 1.0, a new minor one,
 * which is how semver's 0.x marks a breaking change; changesets would turn a major into 1.0.0).
 */
function majorBumps() {
  const dir = join(root, ".changeset");
  const bumps = new Set();
  if (!existsSync(dir)) return bumps;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md")) {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, file), "utf8"))?.[1] ?? "";
    for (const [, name, bump] of front.matchAll(/^["']?([^"':]+)["']?\s*:\s*(\w+)\s*$/gm)) {
      if (bump === "major" || (bump === "minor" && beforeOne(name))) bumps.add(name);
    }
  }
  return bumps;
}

const ref = process.argv[2] ?? defaultRef();
if (ref === undefined) {
  console.log("check:breaking: no earlier version to compare with");
  process.exit(0);
}
const majors = majorBumps();
let unreleased = 0;
for (const [spec, pkg] of Object.entries(SPECS)) {
  let before;
  try {
    before = parse(git("show", `${ref}:${spec}`));
  } catch {
    console.log(`${spec}: not present at ${ref}; nothing to compare`);
    continue;
  }
  const changes = breakingChanges(before, parse(readFileSync(join(root, spec), "utf8")));
  if (changes.length === 0) {
    console.log(`${spec}: no breaking change since ${ref}`);
    continue;
  }
  const covered = majors.has(pkg);
  console.log(
    `${spec}: ${changes.length} breaking change(s) since ${ref}${covered ? ` (${beforeOne(pkg) ? "minor (0.x) or major" : "major"} changeset for ${pkg} present)` : ""}:`,
  );
  for (const change of changes) console.log(`  - ${change}`);
  if (!covered) {
    unreleased += 1;
    console.error(
      `  ${pkg} needs a major changeset (a minor one before 1.0): run \`pnpm changeset\`.`,
    );
  }
}
process.exitCode = unreleased > 0 ? 1 : 0;
