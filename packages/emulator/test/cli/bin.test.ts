// The `api-clients-emulator` command as package managers link it: package.json's bin is a committed
// shim (so a fresh clone links it before any build) that runs dist/cli.js; SIGINT sent the moment the
// credentials are printed still stops it with exit code 0.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const pkgDir = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
  bin: Record<string, string>;
  files: string[];
};
const shim = join(pkgDir, manifest.bin["api-clients-emulator"]!);

function start(file: string, args: string[]) {
  const child = spawn(process.execPath, [file, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => out };
}

it("package.json's bin is a committed file outside dist/, shipped in `files`", () => {
  expect(manifest.bin["api-clients-emulator"]).toBe("./bin/api-clients-emulator.js");
  expect(manifest.files).toContain("bin");
});

it("the shim runs the CLI, and SIGINT right after the credentials exits 0", async () => {
  const run = start(shim, ["--port", "0", "--logs-token", "bin-token"]);
  run.child.stdout.on("data", () => {
    if (/^export UPSTASH_API_KEY=\S+$/m.test(run.output())) run.child.kill("SIGINT");
  });
  const { code, signal } = await run.exited;
  expect(run.output()).toContain("export QSTASH_TOKEN=bin-token");
  expect({ code, signal }).toEqual({ code: 0, signal: null });
});

it("before a build, the shim says to build first", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-bin-"));
  try {
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    copyFileSync(shim, join(dir, "bin", "api-clients-emulator.js"));
    const run = start(join(dir, "bin", "api-clients-emulator.js"), ["--help"]);
    const { code } = await run.exited;
    expect(run.output()).toContain(
      "dist/cli.js is missing; build the package first (`pnpm build`)",
    );
    expect(code).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
