// Consumers' view of a release: every public package's API report (`pnpm api:report`, API Extractor
// from the built .d.ts) is current, and a diff that changes a spec or a report without adding a
// changeset fails `pnpm check:changeset` (both run in .ci/run).
//
//   pnpm exec vitest run scripts/test/api-report.test.ts   (after `pnpm build`)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { needsChangeset } from "../check-changeset.mjs";
import { PUBLIC_PACKAGES, REPO_ROOT } from "../lib/pack.mjs";

describe("API reports", () => {
  it("every public package has one, and none is stale", () => {
    for (const folder of PUBLIC_PACKAGES) {
      expect(
        existsSync(join(REPO_ROOT, "packages", folder, "api", `${folder}.api.md`)),
        folder,
      ).toBe(true);
    }
    const result = spawnSync(process.execPath, ["scripts/api-report.mjs", "--check"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(result.stdout).toMatch(/api:report: \d+ packages, every report is up to date/);
    expect(result.status, result.stderr).toBe(0);
  });
});

describe("a spec or API report change needs a changeset", () => {
  it.each([
    [["specs/logs.openapi.yaml"], [], { watched: ["specs/logs.openapi.yaml"], changeset: false }],
    [
      ["packages/core/api/core.api.md", ".changeset/x.md"],
      [".changeset/x.md"],
      { watched: ["packages/core/api/core.api.md"], changeset: true },
    ],
    [["README.md", "packages/core/src/index.ts"], [], { watched: [], changeset: false }],
    [
      ["specs/management.openapi.yaml", ".changeset/README.md"],
      [".changeset/README.md"],
      { watched: ["specs/management.openapi.yaml"], changeset: false },
    ],
  ])("%j (added %j)", (files, added, want) => {
    expect(needsChangeset(files, added)).toEqual(want);
  });
});
