// The TypeScript compilers a consuming service may build with, for scripts/test/typescript-setups.test.ts:
// the repository's own pinned one, and the newer majors, downloaded from the npm registry once per
// machine into the cache outside the clone that the runtimes share (scripts/lib/tool-download.mjs
// `ensureCachedNpmTool`: bounded in time, retried, reused by every later run and clone). TypeScript 7 is the Go-native compiler: its `tsc` is a launcher of the platform's
// binary (an optional dependency npm picks), with no JS API; only its command line is used here.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv } from "../lib/clean-env.mjs";
import { REPO_ROOT } from "../lib/pack.mjs";
import { ensureCachedNpmTool } from "../lib/tool-download.mjs";

/** The repository's own compiler (`typescript` in the root package.json), used as it is installed. */
const PINNED = join(REPO_ROOT, "node_modules", "typescript");

/** The versions every consumer setup is compiled with: the pinned one first. */
export const COMPILERS = /** @type {const} */ (["5.9.3", "6.0.3", "7.0.2"]);

/**
 * The folder of the `typescript` package of `version`: the repository's own, or the machine cache's
 * (downloaded on first use).
 * @param {string} version
 */
async function packageDir(version) {
  const pinned = JSON.parse(readFileSync(join(PINNED, "package.json"), "utf8")).version;
  if (version === pinned) return PINNED;
  if (version === COMPILERS[0]) {
    throw new Error(`the repository's TypeScript is ${pinned}, not ${version}: update COMPILERS`);
  }
  return ensureCachedNpmTool({
    spec: `typescript@${version}`,
    file: "bin/tsc",
    env: cleanEnv(REPO_ROOT),
  });
}

/**
 * What `tsc -v` prints with the compiler `tsc`, or "" when it does not run.
 * @param {string} tsc
 */
function reportedVersion(tsc) {
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
  const tsc = join(await packageDir(version), "bin", "tsc");
  const reported = reportedVersion(tsc);
  if (reported !== `Version ${version}`) {
    throw new Error(`${tsc} -v says ${JSON.stringify(reported)}, not Version ${version}`);
  }
  return tsc;
}
