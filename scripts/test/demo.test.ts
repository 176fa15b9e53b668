import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

describe("pnpm start (the demo, after `pnpm build`)", () => {
  it("drives both clients against the emulator and exits 0", () => {
    const result = spawnSync(process.execPath, ["scripts/demo.mjs"], {
      cwd: repo,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/iterate every entry \(100,000\)\s+100,000 entries/);
    expect(result.stdout).toMatch(/list\(\) through an injected 503 and 429\s+recovered: 1 entry/);
    expect(result.stdout).toContain("password: ***");
    expect(result.stdout).toMatch(/databases\.delete, then get → 404\s+NotFoundError 404/);
    expect(result.stdout).toMatch(
      /\$ api-clients logs list --state FAILED --page-size 5 --base-url http:\/\/127\.0\.0\.1:\d+\n\s+TIME\s+STATE\s+MESSAGE ID/,
    );
    expect(result.stdout.match(/^\s+\S+T\S+\s+FAILED\s+msg_/gm)).toHaveLength(5);
    // Results list whole items (`+N more` when they do not fit), never a cut one.
    const members = /teams\.listMembers\s+(.*?)\s+\d+ ms$/m.exec(result.stdout)?.[1];
    expect(members).toMatch(/^(\S+@\S+ \(\w+\))(, \S+@\S+ \(\w+\))*(, \+\d+ more)?$/);
    expect(members).toContain("teammate@example.com (dev)");
    expect(result.stdout).not.toContain("--count");
    expect(result.stdout).toMatch(/Done in \d+ ms\./);
    expect(result.status).toBe(0);
  });
});
