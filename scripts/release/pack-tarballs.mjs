#!/usr/bin/env node
// `pnpm pack:tarballs [dir]`: packs every public package, as built, into `dir` (default `tarballs/`)
// the way `pnpm publish` would (workspace ranges become the versions), and prints the `npm install`
// line for the two clients with the runtime they depend on, which a registry would bring along.
import { relative, resolve } from "node:path";
import { packAll, REPO_ROOT } from "../lib/pack.mjs";

const dest = resolve(process.argv[2] ?? resolve(REPO_ROOT, "tarballs"));
const tarballs = packAll(dest);
/** A tarball's path: relative when it is under the current folder, else absolute. */
const shown = (name) => {
  const path = relative(process.cwd(), tarballs[name]);
  return path.startsWith("..") ? tarballs[name] : `./${path}`;
};
for (const name of Object.keys(tarballs)) console.log(shown(name));
console.log(
  `\nThe two clients with core, the runtime they share:\n  npm install ${["core", "logs-client", "management-client"].map(shown).join(" ")}`,
);
