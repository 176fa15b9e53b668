#!/usr/bin/env node
// `pnpm pack:tarballs [dir]`: packs every public package (each `packages/*` that is not private), as
// built, into `dir` (default `tarballs/`) the way `pnpm publish` would (workspace ranges become the
// versions), and prints, for each, one `npm install` line with absolute paths that installs it alone:
// its tarball and the tarballs of the `@api-clients/*` packages it depends on, which a registry would
// bring along and which are not on the registry before a release. Third-party dependencies come from
// the registry as usual.
import { resolve } from "node:path";
import { installLines, manifestOf, packAll, REPO_ROOT } from "../lib/pack.mjs";

const dest = resolve(process.argv[2] ?? resolve(REPO_ROOT, "tarballs"));
const tarballs = packAll(dest);
for (const path of Object.values(tarballs)) console.log(path);
console.log("\nEach package alone, with the tarballs it depends on:");
for (const [folder, line] of Object.entries(installLines(tarballs))) {
  console.log(`\n${manifestOf(folder).name}:\n  ${line}`);
}
