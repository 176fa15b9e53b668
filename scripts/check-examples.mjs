#!/usr/bin/env node
// `pnpm check:examples`: type-checks every ```ts block of the READMEs, then runs those that talk to the
// emulator, so examples never rot.
// Each block becomes its own module under .examples/ (gitignored) and is compiled against the built
// packages as a consumer gets them: `.examples/node_modules/@api-clients/<name>` links to each package
// folder, so imports resolve through its `exports` to `dist/` (run `pnpm build` first). Every README is
// found on its own (`README.md`, `packages/*/README.md`, `bench/README.md`), and so is every public
// package. A block may use a few names that earlier blocks of its README define; they are declared once
// in the ambient prelude below.
// A block runs when it starts an emulator itself, or uses those names (`m`, `logs`, `emu`,
// `databaseId`) without creating a client of its own: each is bundled with esbuild (from the
// built packages) behind a harness that starts an emulator and defines the names against it, and
// runs in its own Node process, which must succeed and then exit by itself (no timer or socket left
// behind). Blocks that create clients of the live services are type-checked only.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
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

/** The workspace packages (`packages/<dir>`) by npm name, each checked to be built. */
function workspacePackages() {
  const found = [];
  for (const dir of readdirSync(join(root, "packages"))) {
    const manifest = join(root, "packages", dir, "package.json");
    if (!existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, "utf8"));
    if (!existsSync(join(root, "packages", dir, "dist"))) {
      console.error(`check:examples: packages/${dir}/dist is missing: run \`pnpm build\` first`);
      process.exit(1);
    }
    found.push({ name, dir: join(root, "packages", dir) });
  }
  return found;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const { name, dir } of workspacePackages()) {
  const link = join(out, "node_modules", ...name.split("/"));
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(dir, link, "dir");
}
writeFileSync(join(out, "prelude.d.ts"), PRELUDE);
const sources = [];
for (const { file, blocks } of readmes()) {
  for (const { code, line } of blocks) {
    const name = `${file.replace(/[/.]/g, "_")}_line${line}.ts`;
    writeFileSync(join(out, name), `// ${file}:${line}\n${code}\nexport {};\n`);
    sources.push({ name, code, where: `${file}:${line}` });
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
          msw: ["packages/emulator/node_modules/msw/lib/core/index.d.mts"],
          "msw/node": ["packages/emulator/node_modules/msw/lib/node/index.d.mts"],
          "openapi-fetch": ["packages/core/node_modules/openapi-fetch"],
          "@opentelemetry/*": ["packages/otel/node_modules/@opentelemetry/*"],
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

/**
 * Why a block is not run, or undefined when it is: it must start an emulator, or use the prelude's
 * names without creating a client (which would talk to the live service).
 * @param {string} code
 */
function notRunnable(code) {
  if (/\bstartEmulator\(/.test(code)) return undefined;
  if (/\bcreate(LogsClient|ManagementClient|Transport)\(/.test(code)) {
    return "creates a client of a live service";
  }
  if (!/\b(m|logs|emu)\.|\bdatabaseId\b/.test(code)) return "does not use the emulator";
  return undefined;
}

const HARNESS = (
  block,
) => `// Defines the prelude's names against a fresh emulator, then runs ${block}.
import { startEmulator } from "@api-clients/emulator";
import { createLogsClient } from "@api-clients/logs-client";
import { createManagementClient } from "@api-clients/management-client";

// The account the READMEs' examples use; members they add are other addresses.
const emu = await startEmulator({
  seedLogs: 50,
  accounts: [{ email: "ops@example.com", apiKey: "examples-key" }],
});
const { logsToken, email, apiKey } = emu.credentials;
const m = createManagementClient({ email, apiKey, baseUrl: emu.url });
const logs = createLogsClient({ token: logsToken, baseUrl: emu.url });
const { database_id: databaseId } = await m.databases.create({
  database_name: "examples",
  primary_region: "us-east-1",
});
Object.assign(globalThis, { emu, m, logs, databaseId });
try {
  await import("./${block}");
} finally {
  await emu.close().catch(() => {});
}
console.log("${DONE}");
`;
const DONE = "check:examples: block finished";
/** After the block finished, its process must exit within this time (milliseconds). */
const EXIT_WITHIN_MS = 3_000;
const BLOCK_TIMEOUT_MS = 60_000;

/** Runs one bundled block; resolves to an error message, or undefined when it passed. */
function runBundle(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd: out, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let finishedAt;
    const onData = (chunk) => {
      output += chunk;
      if (finishedAt === undefined && output.includes(DONE)) {
        finishedAt = Date.now();
        setTimeout(() => child.kill("SIGKILL"), EXIT_WITHIN_MS).unref();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const timer = setTimeout(() => child.kill("SIGKILL"), BLOCK_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (finishedAt !== undefined && signal === "SIGKILL") {
        resolve(
          `finished, but kept its process alive for over ${EXIT_WITHIN_MS} ms (a timer or socket left open)`,
        );
      } else if (code !== 0 || finishedAt === undefined) {
        resolve(`failed (${signal ?? `exit ${code}`}):\n${output.trim().slice(-4000)}`);
      } else {
        resolve(undefined);
      }
    });
  });
}

async function runBlocks() {
  const { build } = await import("esbuild");
  const runnable = [];
  for (const source of sources) {
    const reason = notRunnable(source.code);
    if (reason === undefined) runnable.push(source);
    else console.log(`  type-checked only  ${source.where} (${reason})`);
  }
  const failures = [];
  for (const { name, where } of runnable) {
    const harness = join(out, `run_${name}`);
    writeFileSync(harness, HARNESS(name.replace(/\.ts$/, ".js")));
    const bundle = join(out, "run", name.replace(/\.ts$/, ".mjs"));
    try {
      await build({
        entryPoints: [harness],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        outfile: bundle,
        tsconfig: join(out, "tsconfig.json"),
        logLevel: "silent",
      });
    } catch (error) {
      failures.push(`${where}: does not bundle: ${error.message}`);
      continue;
    }
    const failure = await runBundle(bundle);
    console.log(`  ${failure === undefined ? "ran" : "FAILED"}  ${where}`);
    if (failure !== undefined) failures.push(`${where}: ${failure}`);
  }
  for (const failure of failures) console.error(`\n${failure}`);
  const skipped = sources.length - runnable.length;
  if (failures.length > 0) {
    console.error(
      `\ncheck:examples: ${failures.length} of ${runnable.length} runnable blocks failed`,
    );
    process.exitCode = 1;
  } else {
    console.log(
      `check:examples: ${runnable.length} README code blocks ran against the emulator (${skipped} type-checked only)`,
    );
  }
}

if (tsc.status === 0 && !process.argv.includes("--no-run")) await runBlocks();
