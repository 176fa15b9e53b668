#!/usr/bin/env node
// `pnpm check:packages`: lints every public package as it would be published.
// - publint (strict) checks package.json against the packed files;
// - the tarball must hold the MIT LICENSE;
// - attw (Are The Types Wrong) with its full profile checks that the types resolve for every
//   TypeScript setup (node10, node16 from CommonJS and from ESM, bundler). Each problem it reports
//   must be one of the ACCEPTED exceptions below, each with its reason; anything else fails.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PUBLIC_PACKAGES, REPO_ROOT as root, packPackage } from "./lib/pack.mjs";

/**
 * attw problems that are expected for ES-module-only packages, with the reason. Matched on
 * `kind` and `resolutionKind`, for every entry point.
 */
export const ACCEPTED = [
  {
    kind: "CJSResolvesToESM",
    resolutionKind: "node16-cjs",
    reason:
      "the packages are ES modules only; Node >= 20.19 loads them with require(), but TypeScript's " +
      "`module: node16` does not know that and reports TS1479 in a CommonJS file. Fix (README, " +
      '"TypeScript setups"): `"module": "nodenext"` (TypeScript >= 5.8), or `"type": "module"`.',
  },
];

function run(command, args, cwd) {
  const { status } = spawnSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  return status === 0;
}

const attwBin = join(root, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
/** attw's problems for a tarball, printing its table first. */
function attw(tarball) {
  const color = process.env.NO_COLOR ? ["--no-color"] : [];
  run(
    process.execPath,
    [attwBin, tarball, "--format", "table-flipped", "--no-summary", ...color],
    root,
  );
  const { stdout } = spawnSync(process.execPath, [attwBin, tarball, "--format", "json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  /** @type {{ analysis: { problems?: { kind: string; entrypoint?: string; resolutionKind?: string }[] } }} */
  const report = JSON.parse(stdout);
  return report.analysis.problems ?? [];
}

const license = readFileSync(join(root, "LICENSE"), "utf8");
const packDir = mkdtempSync(join(tmpdir(), "check-packages-"));
const failed = [];
const accepted = new Map();
try {
  for (const name of PUBLIC_PACKAGES) {
    const dir = join(root, "packages", name);
    console.log(`\n=== @api-clients/${name}`);
    if (!run("pnpm", ["exec", "publint", "--strict"], dir)) failed.push(`${name}: publint`);
    let tarball;
    try {
      tarball = packPackage(name, packDir);
    } catch (error) {
      console.error(String(error));
      failed.push(`${name}: pack`);
      continue;
    }
    const packed = spawnSync("tar", ["-xzOf", tarball, "package/LICENSE"], { encoding: "utf8" });
    if (packed.status !== 0 || packed.stdout !== license) {
      console.error(`${name}: the tarball has no LICENSE, or not the repository's`);
      failed.push(`${name}: LICENSE`);
    }
    for (const problem of attw(tarball)) {
      const rule = ACCEPTED.find(
        (r) => r.kind === problem.kind && r.resolutionKind === problem.resolutionKind,
      );
      const where = `${problem.kind} at ${problem.entrypoint ?? "?"} (${problem.resolutionKind ?? "any resolution"})`;
      if (rule) {
        accepted.set(rule, [
          ...(accepted.get(rule) ?? []),
          `${name}${problem.entrypoint?.slice(1) ?? ""}`,
        ]);
      } else {
        console.error(`${name}: attw: ${where} is not an accepted exception`);
        failed.push(`${name}: attw ${where}`);
      }
    }
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

for (const [rule, where] of accepted) {
  console.log(
    `\naccepted attw exception ${rule.kind} under ${rule.resolutionKind} (${where.join(", ")}): ${rule.reason}`,
  );
}
if (failed.length > 0) {
  console.error(`\ncheck:packages failed: ${failed.join(", ")}`);
  process.exitCode = 1;
} else {
  console.log(
    `\ncheck:packages: ${PUBLIC_PACKAGES.length} packages pass publint, carry the LICENSE, and pass attw (full profile) but for the accepted exceptions`,
  );
}
