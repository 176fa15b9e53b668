#!/usr/bin/env node
// Writes each client's `src/version.ts` (the `User-Agent` value) from its package.json, so the header
// follows `changeset version` without reading package.json at run time (which bundlers cannot do).
//
//   node scripts/sync-versions.mjs          write
//   node scripts/sync-versions.mjs --check  exit 1 and name the stale files
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const CLIENTS = ["logs-client", "management-client"];

const render = ({ name, version }) =>
  `// Written by scripts/sync-versions.mjs from package.json (\`pnpm version-packages\` runs it).\n\n` +
  `/** The package name and version sent in the \`User-Agent\` header. */\n` +
  `export const USER_AGENT = "${name}/${version}";\n`;

const check = process.argv.includes("--check");
const stale = [];
for (const pkg of CLIENTS) {
  const manifest = JSON.parse(await readFile(join(root, "packages", pkg, "package.json"), "utf8"));
  const file = join(root, "packages", pkg, "src", "version.ts");
  const want = render(manifest);
  if ((await readFile(file, "utf8").catch(() => "")) === want) continue;
  if (check) stale.push(`packages/${pkg}/src/version.ts`);
  else await writeFile(file, want);
}
if (stale.length > 0) {
  console.error(
    `sync-versions: stale: ${stale.join(", ")}; run \`node scripts/sync-versions.mjs\``,
  );
  process.exitCode = 1;
}
