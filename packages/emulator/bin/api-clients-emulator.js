#!/usr/bin/env node
// The `api-clients-emulator` command. A committed shim rather than a bin pointing into dist/, so that
// package managers can link the command before the first build of a fresh clone.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    "api-clients-emulator: dist/cli.js is missing; build the package first (`pnpm build`).\n",
  );
  process.exit(1);
}
await import(cli.href);
