import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

describe("README examples", () => {
  it("every ```ts block of every README type-checks, and those that talk to the emulator run", () => {
    const result = spawnSync(process.execPath, ["scripts/check-examples.mjs"], {
      cwd: repo,
      encoding: "utf8",
    });
    expect(result.stdout + result.stderr).toMatch(
      /check:examples: \d+ README code blocks type-check/,
    );
    expect(
      Number(/(\d+) README code blocks type-check/.exec(result.stdout)?.[1]),
    ).toBeGreaterThanOrEqual(12);
    // The management client's databases, backups, teams and vector examples, the logs pagination
    // example, the emulator's: each ran in its own process, which exited by itself.
    expect(result.stdout).toMatch(
      /check:examples: \d+ README code blocks ran against the emulator/,
    );
    expect(Number(/(\d+) README code blocks ran/.exec(result.stdout)?.[1])).toBeGreaterThanOrEqual(
      10,
    );
    expect(result.status).toBe(0);
  });
});
