// The `node` binary of a Node major version, installed from the npm registry (the `node` package) into
// .tools/node-<major>/ on first use, through the one tool downloader (scripts/lib/tool-download.mjs).
// Used by `pnpm test` for its Node 22/24 matrix and by the MCP conformance test (its CLI needs Node ≥ 22).
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureTool } from "./tool-download.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Resolves to the path of Node `major`'s binary, installing it first when missing.
 * @param {string | number} major
 * @returns {Promise<string>}
 */
export async function nodeBinary(major) {
  const dir = join(root, ".tools", `node-${major}`);
  const bin = join(dir, "node_modules", "node", "bin", "node");
  const args = ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund"];
  await ensureTool({
    name: `node@${major}`,
    command: "npm",
    args: [...args, "--loglevel=error", `node@${major}`],
    installed: () => existsSync(bin),
    reset: () => rmSync(dir, { recursive: true, force: true }),
  });
  return bin;
}
