// The runtimes the tests download from the npm registry, pinned, each with a file of its package that is
// there once it is installed. One table for the Node matrix of `pnpm test` (scripts/test.mjs) and the
// runtime test (scripts/test-runtimes.mjs), so both use the same cached download
// (scripts/lib/tool-download.mjs `ensureCachedNpmTool`). Bump versions here.
export const RUNTIME_TOOLS = {
  // Node 22 and 24 from the `node` package (its install script fetches the platform's binary); the
  // Node running the tests is the third (20, the oldest the packages support).
  node22: { spec: "node@22.23.3", file: "bin/node" },
  node24: { spec: "node@24.21.0", file: "bin/node" },
  bun: { spec: "bun@1.4.5", file: "bin/bun.exe" },
  deno: { spec: "deno@2.9.6", file: "deno" },
  // The last Miniflare 4 whose engines field allows Node 20 (later ones need Node 22).
  miniflare: { spec: "miniflare@4.20260426.0", file: "../workerd/package.json" },
  "playwright-core": { spec: "playwright-core@1.65.1", file: "index.mjs" },
};
