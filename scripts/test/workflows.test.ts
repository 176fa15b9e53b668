// The workflows in .github/workflows/ (CI on Node 20, 22 and 24; the changesets release with npm
// trusted publishing) pass action-validator, and a broken workflow fails it, naming the file.
//
//   pnpm exec vitest run scripts/test/workflows.test.ts
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../lib/pack.mjs";

const lint = (...args: string[]) =>
  spawnSync(process.execPath, ["scripts/lint-workflows.mjs", ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });

describe("GitHub workflows", () => {
  it("pass action-validator", () => {
    const result = lint();
    expect(result.stdout).toMatch(/^lint:workflows: 2 workflows valid$/m);
    expect(result.status, result.stderr).toBe(0);
  });

  it("CI runs the README's test command on Node 20, 22 and 24; the release publishes with provenance", () => {
    const ci = parse(readFileSync(join(REPO_ROOT, ".github/workflows/ci.yml"), "utf8"));
    expect(ci.jobs.test.strategy.matrix.node).toEqual([20, 22, 24]);
    expect(ci.jobs.test.steps.map((s: { run?: string }) => s.run)).toContain("pnpm test");
    const release = parse(readFileSync(join(REPO_ROOT, ".github/workflows/release.yml"), "utf8"));
    expect(release.jobs.release.permissions["id-token"]).toBe("write");
    const publish = release.jobs.release.steps.find((s: { uses?: string }) =>
      s.uses?.startsWith("changesets/action@"),
    );
    expect(publish.with.publish).toBe("pnpm release");
    expect(publish.env.NPM_CONFIG_PROVENANCE).toBe("true");
  });

  it("a broken workflow fails, naming the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "workflows-"));
    try {
      writeFileSync(
        join(dir, "broken.yml"),
        "name: broken\non: [push]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: nope\n",
      );
      const result = lint(dir);
      expect(result.stderr).toMatch(/broken\.yml is not a valid workflow/);
      expect(result.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
