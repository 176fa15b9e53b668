#!/usr/bin/env node
// The `api-clients-mcp` binary. A committed file (not dist/cli.js itself), so that installing the
// workspace links the bin before the package is built; it runs the compiled server.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    "api-clients-mcp: dist/cli.js is missing: build the package first (pnpm build)\n",
  );
  process.exit(1);
}
await import(cli.href);
