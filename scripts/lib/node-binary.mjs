// The `node` binary of a Node major version, from the machine's cache of runtimes (the `node` npm
// package, downloaded on first use through scripts/lib/tool-download.mjs `ensureCachedNpmTool`): the
// pinned version of scripts/lib/runtime-tools.mjs, else the latest of that major. Used by `pnpm test` for
// its Node 22/24 matrix and by the MCP conformance test (its CLI needs Node ≥ 22).
import { join } from "node:path";
import { RUNTIME_TOOLS } from "./runtime-tools.mjs";
import { ensureCachedNpmTool } from "./tool-download.mjs";

/**
 * Resolves to the path of Node `major`'s binary, downloading it into the cache first when missing.
 * @param {string | number} major
 * @returns {Promise<string>}
 */
export async function nodeBinary(major) {
  const tool = RUNTIME_TOOLS[`node${major}`] ?? { spec: `node@${major}`, file: "bin/node" };
  return join(await ensureCachedNpmTool(tool), "bin", "node");
}
