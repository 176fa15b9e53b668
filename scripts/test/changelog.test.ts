// `pnpm changelog` in a throwaway git repository holding this repository's specs, scripts and
// resource modules: a response field retyped in a spec gives a changeset naming the method and the
// field with the bump `check:breaking` asks for; a second run writes nothing new; and
// `check:changeset` fails without the file and passes with it.
//
//   pnpm exec vitest run scripts/test/changelog.test.ts
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/pack.mjs";

const dir = mkdtempSync(join(tmpdir(), "changelog-"));
const run = (command: string, ...args: string[]) =>
  spawnSync(command, args, {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, CHANGESET_BASE: "" },
  });
const git = (...args: string[]) => {
  const result = run("git", ...args);
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
};
const spec = join(dir, "specs/management.openapi.yaml");
const changesetFiles = () =>
  readdirSync(join(dir, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md");
const setVersion = (pkg: string, version: string) => {
  const file = join(dir, "packages", pkg, "package.json");
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), version }));
};

beforeAll(() => {
  for (const path of [
    "scripts",
    "specs",
    "packages/logs-client/src/client.ts",
    "packages/management-client/src/resources",
    ".changeset/config.json",
    ".changeset/README.md",
  ]) {
    cpSync(join(REPO_ROOT, path), join(dir, path), { recursive: true });
  }
  for (const pkg of readdirSync(join(REPO_ROOT, "packages"))) {
    mkdirSync(join(dir, "packages", pkg), { recursive: true });
    cpSync(
      join(REPO_ROOT, "packages", pkg, "package.json"),
      join(dir, "packages", pkg, "package.json"),
    );
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"));
  writeFileSync(join(dir, ".gitignore"), "node_modules\n");
  git("init", "--quiet", "--initial-branch=main");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "base");
  git("checkout", "--quiet", "-b", "feature");
  // `Database.state` (the answer of `databases.get()` among others) becomes a number.
  const text = readFileSync(spec, "utf8");
  const retyped = text.replace(
    /(\n {8}state:\n {10}type: )string(\n {10}description: State of the database)/,
    "$1number$2",
  );
  expect(retyped).not.toBe(text);
  writeFileSync(spec, retyped);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pnpm changelog", () => {
  it("check:changeset fails on the spec change before a changeset exists", () => {
    const check = run("node", "scripts/check-changeset.mjs");
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("specs/management.openapi.yaml changed since main");
    expect(check.stderr).toContain("pnpm changelog");
  });

  it("names the method and the retyped field, with a major bump for a client at 1.x", () => {
    setVersion("management-client", "1.2.0");
    const first = run("node", "scripts/changelog.mjs");
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const text = readFileSync(join(dir, ".changeset/changelog-management-client.md"), "utf8");
    expect(text).toMatch(/^---\n"@api-clients\/management-client": major\n---\n/);
    expect(text).toContain(
      "- Breaking: `databases.get()` (`GET /v2/redis/database/{id}`): the response field `state` is now a number, was a string.",
    );
    // Only the management spec changed: the logs client gets nothing; the CLI, the emulator and
    // the MCP server (which embed tables generated from every spec) get a minor bump.
    expect(changesetFiles().sort()).toEqual([
      "changelog-cli.md",
      "changelog-emulator.md",
      "changelog-management-client.md",
      "changelog-mcp.md",
    ]);
    expect(readFileSync(join(dir, ".changeset/changelog-cli.md"), "utf8")).toMatch(
      /^---\n"@api-clients\/cli": minor\n---\n/,
    );

    // Idempotent: the same diff writes no second file and changes none.
    const before = changesetFiles().map((f) => readFileSync(join(dir, ".changeset", f), "utf8"));
    const second = run("node", "scripts/changelog.mjs");
    expect(second.status).toBe(0);
    expect(second.stdout).not.toMatch(/wrote/);
    expect(changesetFiles().map((f) => readFileSync(join(dir, ".changeset", f), "utf8"))).toEqual(
      before,
    );
  });

  it("before 1.0 the breaking change gets the minor bump check:breaking accepts", () => {
    setVersion("management-client", "0.1.0");
    expect(run("node", "scripts/changelog.mjs").status).toBe(0);
    const text = readFileSync(join(dir, ".changeset/changelog-management-client.md"), "utf8");
    expect(text).toMatch(/^---\n"@api-clients\/management-client": minor\n---\n/);
    expect(text).toContain("the response field `state` is now a number, was a string");
    expect(run("node", "scripts/check-breaking.mjs", "main").status).toBe(0);
  });

  it("check:changeset passes with the written changeset", () => {
    const check = run("node", "scripts/check-changeset.mjs");
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    expect(check.stdout).toContain("1 spec or API report change(s) since main, with a changeset");
  });

  it("--base names the base; the changesets go away when the spec is back", () => {
    git("checkout", "--quiet", "main", "--", "specs/management.openapi.yaml");
    const result = run("node", "scripts/changelog.mjs", "--base", "main");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("no spec changed since main");
    expect(changesetFiles()).toEqual([]);
  });
});
