// The MCP conformance suite's server scenarios against this server over Streamable HTTP, on Node 22
// (the suite's CLI needs it; from the per-machine cache of runtimes, as `pnpm test`'s matrix). The
// scenarios that need the suite's fixture server are listed, with why, in expected-failures.yml; the
// suite fails on any other failure and on a listed scenario that passes.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Backend } from "../../src/internal/backend.js";
import { serveHttp, type ServedHttp } from "../../src/internal/http.js";
import { createShared } from "../../src/internal/server.js";
import { credentialsEnv, useEmulator } from "../support/server.js";

const h = useEmulator({ seedLogs: 100 });
const EXPECTED = fileURLToPath(new URL("./expected-failures.yml", import.meta.url));
const NODE_BINARY = new URL("../../../../scripts/lib/node-binary.mjs", import.meta.url).href;
const require = createRequire(import.meta.url);
const CLI = join(
  dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist",
  "index.js",
);

let served: ServedHttp | undefined;
const work = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
afterAll(async () => {
  await served?.close();
  rmSync(work, { recursive: true, force: true });
});

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

describe("MCP conformance suite (server scenarios)", () => {
  it("passes every scenario but the listed ones, and fails each listed one", async () => {
    const { nodeBinary } = (await import(NODE_BINARY)) as {
      nodeBinary(major: string): Promise<string>;
    };
    const node22 = await nodeBinary("22");
    const backend = new Backend({
      env: credentialsEnv(h.emu),
      logs: { baseUrl: h.emu.url },
      management: { baseUrl: h.emu.url },
    });
    served = await serveHttp(createShared(backend), {}, { port: 0 });
    const { code, output } = await run(node22, [
      CLI,
      "server",
      "--url",
      served.url,
      "--expected-failures",
      EXPECTED,
      "--output-dir",
      join(work, "results"),
    ]);
    expect(output).toMatch(/server-initialize: \d+ passed, 0 failed/);
    expect(output).toMatch(/tools-list: [1-9]\d* passed, 0 failed/);
    expect(output).toMatch(/dns-rebinding-protection: [1-9]\d* passed, 0 failed/);
    expect(code, output.slice(-4000)).toBe(0);
  }, 600_000);
});
