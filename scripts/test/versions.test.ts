import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

describe("User-Agent versions", () => {
  it.each(["logs-client", "management-client"])(
    "%s/src/version.ts matches its package.json",
    (pkg) => {
      const manifest = JSON.parse(readFileSync(`${repo}packages/${pkg}/package.json`, "utf8"));
      const source = readFileSync(`${repo}packages/${pkg}/src/version.ts`, "utf8");
      expect(source).toContain(`export const USER_AGENT = "${manifest.name}/${manifest.version}";`);
    },
  );

  it("sync-versions --check passes", () => {
    const result = spawnSync(process.execPath, ["scripts/sync-versions.mjs", "--check"], {
      cwd: repo,
    });
    expect(result.status).toBe(0);
  });
});
