#!/usr/bin/env node
// `pnpm check:examples`: type-checks every ```ts block of the READMEs, so examples never rot.
// Each block becomes its own module under .examples/ (gitignored) and is compiled against the
// packages' sources. A block may use a few names that earlier blocks of its README define; they are
// declared once in the ambient prelude below.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, ".examples");

const PRELUDE = `// Names that README blocks take from the blocks before them.
declare global {
  const m: import("@api-clients/management-client").ManagementClient;
  const logs: import("@api-clients/logs-client").LogsClient;
  const emu: import("@api-clients/emulator").Emulator;
  const databaseId: string;
}
export {};
`;

/** Every README of the repository with its ```ts blocks. */
function readmes() {
  const files = ["README.md"];
  for (const dir of ["packages", "bench"]) {
    if (!existsSync(join(root, dir))) continue;
    if (dir === "bench") files.push("bench/README.md");
    else for (const pkg of readdirSync(join(root, dir))) files.push(`packages/${pkg}/README.md`);
  }
  return files
    .filter((file) => existsSync(join(root, file)))
    .map((file) => {
      const text = readFileSync(join(root, file), "utf8");
      const blocks = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => ({
        code: match[1],
        line: text.slice(0, match.index).split("\n").length,
      }));
      return { file, blocks };
    });
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "prelude.d.ts"), PRELUDE);
const sources = [];
for (const { file, blocks } of readmes()) {
  for (const { code, line } of blocks) {
    const name = `${file.replace(/[/.]/g, "_")}_line${line}.ts`;
    writeFileSync(join(out, name), `// ${file}:${line}\n${code}\nexport {};\n`);
    sources.push(name);
  }
}
writeFileSync(
  join(out, "tsconfig.json"),
  JSON.stringify(
    {
      extends: "../tsconfig.base.json",
      compilerOptions: {
        noEmit: true,
        module: "ESNext",
        moduleResolution: "Bundler",
        noUnusedLocals: false,
        baseUrl: "..",
        paths: {
          "@api-clients/*": ["packages/*/src/index.ts"],
          "openapi-fetch": ["packages/core/node_modules/openapi-fetch"],
        },
      },
      include: ["*.ts"],
    },
    null,
    2,
  ),
);

const tsc = spawnSync("pnpm", ["exec", "tsc", "-p", relative(root, join(out, "tsconfig.json"))], {
  cwd: root,
  encoding: "utf8",
});
process.stdout.write(tsc.stdout + tsc.stderr);
if (tsc.status === 0)
  console.log(`check:examples: ${sources.length} README code blocks type-check`);
process.exitCode = tsc.status ?? 1;
