// The environment for a command a test runs as a user would: the caller's, without what pnpm, turbo
// and vitest set for themselves (a `pnpm test` run must not leak its registry settings, its
// `node_modules/.bin` or `NODE_ENV=test` into a fresh clone or a consumer project).
import { delimiter } from "node:path";

/**
 * @param {string} repoRoot folders under it are dropped from PATH
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function cleanEnv(repoRoot, extra = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|turbo_|vitest)/i.test(key)) continue;
    // NODE_PATH: pnpm points it at the workspace's packages, where require() would find them too.
    if (
      ["NODE_ENV", "NODE_PATH", "NODE_OPTIONS", "TEST", "INIT_CWD", "FORCE_COLOR"].includes(key)
    ) {
      continue;
    }
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !dir.startsWith(repoRoot.replace(/\/$/, "")))
    .join(delimiter);
  return {
    ...env,
    NO_COLOR: "1",
    TURBO_TELEMETRY_DISABLED: "1",
    DO_NOT_TRACK: "1",
    COREPACK_ENABLE_DOWNLOAD_PROMPT: "0",
    ...extra,
  };
}
