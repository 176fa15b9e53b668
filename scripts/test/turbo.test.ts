import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

type DryRun = {
  tasks: {
    taskId: string;
    task: string;
    inputs: Record<string, string>;
    cache: { status: string };
  }[];
};

/** turbo's dry run of a task: what each task would hash and whether the cache has it. */
function dryRun(task: string): DryRun["tasks"] {
  const json = execFileSync("pnpm", ["exec", "turbo", "run", task, "--dry=json"], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
  });
  return (JSON.parse(json) as DryRun).tasks;
}

/** The files each package's `generate` task hashes. */
function generateInputs(): Record<string, string[]> {
  return Object.fromEntries(dryRun("generate").map((t) => [t.taskId, Object.keys(t.inputs)]));
}

describe("turbo generate inputs", () => {
  const LOGS = "../../specs/logs.openapi.yaml";
  const MANAGEMENT = "../../specs/management.openapi.yaml";

  it("a spec change invalidates exactly the packages that spec feeds", () => {
    const inputs = generateInputs();
    const specsOf = (task: string) =>
      inputs[task]!.filter((file) => file.startsWith("../../specs/"));
    expect(specsOf("@api-clients/logs-client#generate")).toEqual([LOGS]);
    expect(specsOf("@api-clients/management-client#generate")).toEqual([MANAGEMENT]);
    expect(specsOf("@api-clients/emulator#generate").sort()).toEqual([LOGS, MANAGEMENT]);
    expect(specsOf("@api-clients/cli#generate").sort()).toEqual([LOGS, MANAGEMENT]);
    expect(specsOf("@api-clients/mcp#generate").sort()).toEqual([LOGS, MANAGEMENT]);
    expect(specsOf("@api-clients/core#generate")).toEqual([]);
    for (const task of ["logs-client", "management-client", "emulator", "cli", "mcp"]) {
      expect(inputs[`@api-clients/${task}#generate`]).toContain("../../scripts/generate.mjs");
    }
  });

  it("with nothing changed since the last build (run by `pnpm test` before this suite), build is fully cached", () => {
    // (Packages without a build script, such as bench, have nothing to cache.)
    const builds = dryRun("build").filter(
      (t) => t.task === "build" && t.command !== "<NONEXISTENT>",
    );
    expect(builds.length).toBeGreaterThanOrEqual(4);
    expect(builds.filter((t) => t.cache.status !== "HIT").map((t) => t.taskId)).toEqual([]);
  });
});
