// The command line's base URLs: `--base-url`, else QSTASH_URL (logs) or UPSTASH_API_URL (management),
// else the public services; and the emulator's printed `export` lines are all it needs.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cliEnv, runCli } from "../support/cli.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 7 });
});
afterAll(() => emu.close());

/** A loopback URL nothing listens on: a request sent there fails. */
const NOWHERE = "http://127.0.0.1:9";
const credentials = () => ({
  QSTASH_TOKEN: emu.credentials.logsToken,
  UPSTASH_EMAIL: emu.credentials.email,
  UPSTASH_API_KEY: emu.credentials.apiKey,
});
const entries = (stdout: string) => (JSON.parse(stdout) as { events: unknown[] }).events.length;

describe("base URLs from the environment", () => {
  it("logs commands read QSTASH_URL, the others UPSTASH_API_URL", async () => {
    const env = { ...credentials(), QSTASH_URL: emu.url, UPSTASH_API_URL: emu.url };
    const logs = await runCli(["logs", "list", "--json"], env);
    expect(logs.stderr).toBe("");
    expect(logs.code).toBe(0);
    expect(entries(logs.stdout)).toBe(7);
    const dbs = await runCli(["db", "list", "--json"], env);
    expect(dbs.stderr).toBe("");
    expect(dbs.code).toBe(0);
    expect(JSON.parse(dbs.stdout)).toEqual([]);
  });

  it("each API reads only its own variable", async () => {
    const env = { ...credentials(), QSTASH_URL: emu.url, UPSTASH_API_URL: NOWHERE };
    const dbs = await runCli(["db", "list", "--json", "--max-retries", "0"], env);
    expect(dbs.code).toBe(1);
    expect(dbs.stderr).toContain(`Connection failed (GET ${NOWHERE}/v2/redis/databases)`);
    expect((await runCli(["logs", "list", "--json"], env)).code).toBe(0);
  });

  it("--base-url wins over both variables", async () => {
    const env = { ...credentials(), QSTASH_URL: NOWHERE, UPSTASH_API_URL: NOWHERE };
    const logs = await runCli(["logs", "list", "--json", "--base-url", emu.url], env);
    expect(logs.code).toBe(0);
    expect(entries(logs.stdout)).toBe(7);
    expect((await runCli(["db", "list", "--base-url", emu.url], env)).code).toBe(0);
  });

  it.each([
    ["logs", ["logs", "list"], "QSTASH_URL"],
    ["management", ["db", "list"], "UPSTASH_API_URL"],
  ])(
    "a bad %s URL in the environment is a usage error naming the variable",
    async (_, args, name) => {
      const result = await runCli(args, { ...credentials(), [name]: "http://api.example" });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`invalid ${name}: must use https`);
      expect(result.stderr).not.toContain("--base-url");
    },
  );

  it("the emulator's printed `export` lines, run by a shell, are all the command line needs", async () => {
    const require = createRequire(import.meta.url);
    const emulatorBin = join(
      dirname(require.resolve("@api-clients/emulator/package.json")),
      "bin",
      "api-clients-emulator.js",
    );
    const child = spawn(process.execPath, [emulatorBin, "--port", "0", "--seed-logs", "4"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      let out = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no export lines:\n${out}`)), 30_000);
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (/^export UPSTASH_API_KEY=/m.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const exports = out.split("\n").filter((line) => line.startsWith("export "));
      const inShell = (args: string) =>
        spawnSync(
          "sh",
          ["-c", `${exports.join("\n")}\nexec "${process.execPath}" "${BIN}" ${args}`],
          {
            encoding: "utf8",
            env: cliEnv(),
            timeout: 60_000,
          },
        );
      const logs = inShell("logs list --json");
      expect(logs.stderr).toBe("");
      expect(entries(logs.stdout)).toBe(4);
      const created = inShell("db create --name from-exports --primary-region eu-west-1 --json");
      expect(created.stderr).toBe("");
      expect(created.status).toBe(0);
      const dbs = inShell("db list --json");
      expect(
        (JSON.parse(dbs.stdout) as { database_name: string }[]).map((d) => d.database_name),
      ).toEqual(["from-exports"]);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
