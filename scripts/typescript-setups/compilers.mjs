// The TypeScript compilers a consuming service may build with, for scripts/test/typescript-setups.test.ts:
// the repository's own pinned one, and the newer majors, installed from the npm registry on first use
// into TOOLS_DIR (gitignored) through scripts/lib/tool-download.mjs (bounded in time, retried, reused
// by later runs). TypeScript 7 is the Go-native compiler: its `tsc` is a launcher of the platform's
// binary (an optional dependency npm picks), with no JS API; only its command line is used here.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv } from "../lib/clean-env.mjs";
import { REPO_ROOT } from "../lib/pack.mjs";
import { ensureTool } from "../lib/tool-download.mjs";

/** Where the downloaded compilers are installed, one folder per version (the one line to change when the tool cache moves). */
export const TOOLS_DIR = join(REPO_ROOT, ".tools", "typescript");

/** The repository's own compiler (`typescript` in the root package.json), used as it is installed. */
const PINNED = join(REPO_ROOT, "node_modules", "typescript");

/** The versions every consumer setup is compiled with: the pinned one first. */
export const COMPILERS = /** @type {const} */ (["5.9.3", "6.0.3", "7.0.2"]);

/**
 * The folder of the `typescript` package of `version`.
 * @param {string} version
 */
function packageDir(version) {
  const pinned = JSON.parse(readFileSync(join(PINNED, "package.json"), "utf8")).version;
  if (version === pinned) return PINNED;
  if (version === COMPILERS[0]) {
    throw new Error(`the repository's TypeScript is ${pinned}, not ${version}: update COMPILERS`);
  }
  return join(TOOLS_DIR, version, "node_modules", "typescript");
}

/**
 * What `tsc -v` prints with the compiler of `version`, or "" when it does not run.
 * @param {string} version
 */
function reportedVersion(version) {
  const tsc = join(packageDir(version), "bin", "tsc");
  const { stdout } = spawnSync(process.execPath, [tsc, "-v"], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return (stdout ?? "").trim();
}

/**
 * The `bin/tsc` of TypeScript `version` (run it with `node`), installing it first if needed.
 * @param {string} version one of {@link COMPILERS}
 * @returns {Promise<string>}
 */
export async function compiler(version) {
  const prefix = join(TOOLS_DIR, version);
  if (packageDir(version) !== PINNED) {
    await ensureTool({
      name: `typescript@${version}`,
      command: "npm",
      args: [
        "install",
        "--prefix",
        prefix,
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `typescript@${version}`,
      ],
      env: cleanEnv(REPO_ROOT),
      installed: () => reportedVersion(version) === `Version ${version}`,
      reset: () => rmSync(prefix, { recursive: true, force: true }),
    });
  }
  const tsc = join(packageDir(version), "bin", "tsc");
  const reported = reportedVersion(version);
  if (reported !== `Version ${version}`) {
    throw new Error(`${tsc} -v says ${JSON.stringify(reported)}, not Version ${version}`);
  }
  return tsc;
}
