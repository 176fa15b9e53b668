// The README's quick start, as a user runs it: a fresh npm project outside the workspace installs the
// packed clients (with core, the runtime they share, and the emulator) with `npm install`, starts the
// installed emulator, takes the `export` lines it prints into a shell, and runs the README's quick
// start block unchanged (read from README.md) with `QSTASH_URL` and `UPSTASH_API_URL` set: everything
// on 127.0.0.1. Third-party dependencies (openapi-fetch) come from the npm cache when there.
//
//   pnpm exec vitest run scripts/test/quick-start.test.ts   (the packages must be built)
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv } from "../lib/clean-env.mjs";
import { packPackage, REPO_ROOT } from "../lib/pack.mjs";

const PACKED = ["core", "logs-client", "management-client", "emulator"];
const STEP_TIMEOUT_MS = 5 * 60_000;

/** The first ```ts block after the README's "## Quick start" heading, as it is. */
function quickStartBlock(): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.indexOf("\n## Quick start\n");
  if (section === -1) throw new Error('README.md has no "## Quick start" section');
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(section));
  if (!block) throw new Error("the README's quick start has no ```ts block");
  return block[1]!;
}

let work = "";
let emulator: ChildProcess | undefined;
/** The `export` lines the installed emulator printed. */
let exports: string[] = [];

const run = (command: string, args: string[], cwd: string) =>
  spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: cleanEnv(REPO_ROOT),
    timeout: STEP_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });

describe("the README's quick start in a fresh npm project, from the packed tarballs", () => {
  beforeAll(() => {
    for (const name of PACKED) {
      if (!existsSync(join(REPO_ROOT, "packages", name, "dist"))) {
        throw new Error(`packages/${name}/dist is missing: run \`pnpm build\` first`);
      }
    }
    work = realpathSync(mkdtempSync(join(tmpdir(), "quick-start-")));
  });

  afterAll(() => {
    emulator?.kill("SIGKILL");
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    "npm install takes the two clients' tarballs with core's and the emulator's, one copy of core",
    () => {
      const tarballs = PACKED.map((name) => packPackage(name, join(work, "tarballs")));
      const project = join(work, "project");
      run("mkdir", [project], work);
      writeFileSync(
        join(project, "package.json"),
        `${JSON.stringify({ name: "quick-start", private: true, type: "module" }, null, 2)}\n`,
      );
      const install = run(
        "npm",
        ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs],
        project,
      );
      expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
      const version = (name: string) =>
        (
          JSON.parse(
            readFileSync(
              join(project, "node_modules", "@api-clients", name, "package.json"),
              "utf8",
            ),
          ) as { version: string }
        ).version;
      const own = (name: string) =>
        (
          JSON.parse(readFileSync(join(REPO_ROOT, "packages", name, "package.json"), "utf8")) as {
            version: string;
          }
        ).version;
      for (const name of PACKED) expect(version(name), name).toBe(own(name));
      // Core once, at the top: the clients and the emulator share it.
      for (const name of ["logs-client", "management-client", "emulator"]) {
        expect(
          existsSync(join(project, "node_modules", "@api-clients", name, "node_modules")),
        ).toBe(false);
      }
    },
    STEP_TIMEOUT_MS,
  );

  it(
    "the installed emulator prints export lines; with them, the quick start runs unchanged against it",
    async () => {
      const project = join(work, "project");
      const bin = join(project, "node_modules", ".bin", "api-clients-emulator");
      emulator = spawn(bin, ["--seed-logs", "300", "--seed", "4"], {
        cwd: project,
        env: cleanEnv(REPO_ROOT),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let printed = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no export lines:\n${printed}`)), 60_000);
        emulator!.stdout!.on("data", (chunk: Buffer) => {
          printed += chunk.toString();
          if (/^export UPSTASH_API_KEY=/m.test(printed)) {
            clearTimeout(timer);
            resolve();
          }
        });
        emulator!.once("exit", (code) => reject(new Error(`emulator exited ${code}:\n${printed}`)));
      });
      exports = printed.split("\n").filter((line) => line.startsWith("export "));
      const names = exports.map((line) => /^export (\w+)=/.exec(line)?.[1]);
      expect(names).toEqual(
        expect.arrayContaining([
          "QSTASH_URL",
          "UPSTASH_API_URL",
          "QSTASH_TOKEN",
          "UPSTASH_EMAIL",
          "UPSTASH_API_KEY",
        ]),
      );

      writeFileSync(join(project, "quick-start.mjs"), quickStartBlock());
      // As a user would: the export lines pasted into a shell, then `node quick-start.mjs`. The
      // environment has none of the variables before (so nothing points at the live services but them).
      const env = cleanEnv(REPO_ROOT);
      for (const name of names) delete env[name!];
      const result = spawnSync(
        "sh",
        ["-c", `${exports.join("\n")}\nexec "${process.execPath}" quick-start.mjs`],
        { cwd: project, encoding: "utf8", env, timeout: 60_000, killSignal: "SIGKILL" },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);

      // What it printed is what the emulator holds: every FAILED entry, with its time in ISO 8601, and
      // the database it created.
      const value = (name: string) =>
        exports
          .find((line) => line.startsWith(`export ${name}=`))!
          .slice(`export ${name}=`.length)
          .replace(/^'|'$/g, "");
      // Read straight from the emulator over HTTP.
      const failed: { messageId: string }[] = [];
      let cursor: string | undefined;
      do {
        const query = new URLSearchParams({ state: "FAILED", count: "1000" });
        if (cursor !== undefined) query.set("cursor", cursor);
        const page = (await (
          await fetch(`${value("QSTASH_URL")}/v2/logs?${query}`, {
            headers: { authorization: `Bearer ${value("QSTASH_TOKEN")}` },
          })
        ).json()) as { events: { messageId: string }[]; cursor?: string };
        failed.push(...page.events);
        cursor = page.cursor;
      } while (cursor !== undefined);
      expect(failed.length).toBeGreaterThan(0);
      const lines = result.stdout.trimEnd().split("\n");
      expect(lines.slice(0, failed.length).map((line) => line.split(" ")[1])).toEqual(
        failed.map((entry) => entry.messageId),
      );
      for (const line of lines.slice(0, failed.length)) {
        expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z msg_/);
      }
      const basic = Buffer.from(`${value("UPSTASH_EMAIL")}:${value("UPSTASH_API_KEY")}`).toString(
        "base64",
      );
      const dbs = (await (
        await fetch(`${value("UPSTASH_API_URL")}/v2/redis/databases`, {
          headers: { authorization: `Basic ${basic}` },
        })
      ).json()) as { database_id: string }[];
      expect(dbs).toHaveLength(1);
      const db = dbs[0];
      expect(lines.at(-1)).toBe(`created database quick-start ${db!.database_id}`);
      expect(lines).toHaveLength(failed.length + 1);
    },
    STEP_TIMEOUT_MS,
  );
});
