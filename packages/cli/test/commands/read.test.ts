// Issue 32, item 1: a command's `read` turns the parsed command line into its typed input, without a
// server (nor a context): table-driven over a few commands of each kind.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { callCommand } from "../../src/call.js";
import { flagFor, type CliCommand, type ReadEnv } from "../../src/command.js";
import { allCommands } from "../../src/commands.js";
import { UsageError } from "../../src/context.js";
import { exportCommand } from "../../src/logs/export.js";
import { listCommand } from "../../src/logs/list.js";
import { summaryCommand } from "../../src/logs/summary.js";
import { tailCommand } from "../../src/logs/tail.js";
import { managementCommands } from "../../src/management/commands.js";
import { operation } from "../../src/operations.js";

const NOW = 1_700_000_000_000;

function env(): ReadEnv & { warnings: string[] } {
  const warnings: string[] = [];
  const stdin = new PassThrough();
  stdin.end();
  return { now: NOW, warn: (m) => warnings.push(m), stdin, warnings };
}

const management = (path: string): CliCommand =>
  managementCommands().find((c) => c.path.join(" ") === path) as CliCommand;

describe("read: the command line as a typed input", () => {
  it.each<[string, CliCommand, string[], Record<string, unknown>, unknown]>([
    [
      "logs list",
      listCommand as CliCommand,
      [],
      { state: ["failed"], pageSize: ["5"], from: ["1h"], json: true },
      {
        params: { state: "failed", count: 5, fromDate: NOW - 3_600_000 },
        json: true,
        limit: undefined,
      },
    ],
    [
      "logs summary",
      summaryCommand as CliCommand,
      [],
      { by: "url", from: ["2h"] },
      { by: "url", params: { fromDate: NOW - 7_200_000, toDate: NOW }, json: false },
    ],
    [
      "logs tail",
      tailCommand as CliCommand,
      [],
      { interval: "0.5", lines: "3", limit: "7" },
      { params: {}, json: false, intervalMs: 500, lines: 3, limit: 7 },
    ],
    [
      "db rename",
      management("db rename"),
      ["db-1"],
      { name: ["cache"] },
      {
        input: { path: { id: "db-1" }, body: { name: "cache" } },
        dryRun: false,
        consent: { yes: false, resource: "db-1 cache" },
        json: false,
        showSecrets: false,
      },
    ],
    [
      "call getDatabase",
      callCommand(operation("getDatabase")) as CliCommand,
      [],
      { param: ["id=db-1", "credentials=hide"], dryRun: true },
      {
        input: { path: { id: "db-1" }, query: { credentials: "hide" } },
        dryRun: true,
        consent: { yes: false, resource: "db-1" },
      },
    ],
  ])("%s", async (_name, command, args, opts, expected) => {
    expect(await command.read(args, opts, env())).toEqual(expected);
  });

  it("logs export pins the window and builds the resume command from its own flags", async () => {
    const read = (await exportCommand.read(
      [],
      { from: ["1h"], out: "day.ndjson", append: true, atByte: "120", progress: true },
      env(),
    )) as Awaited<ReturnType<typeof exportCommand.read>>;
    expect(read.params).toEqual({ fromDate: NOW - 3_600_000, toDate: NOW });
    expect(read.options).toMatchObject({ format: "ndjson", out: "day.ndjson", atByte: 120 });
    expect(read.resume({ color: true }, "c-1", undefined, 300)).toBe(
      `api-clients logs export --cursor c-1 --from ${NOW - 3_600_000} --to ${NOW} --out day.ndjson --append --at-byte 300`,
    );
  });

  it.each<[string, CliCommand, string[], Record<string, unknown>, RegExp]>([
    [
      "a typo of a state",
      listCommand as CliCommand,
      [],
      { state: ["faild"] },
      /did you mean FAILED/,
    ],
    [
      "--at-byte without --append",
      exportCommand as CliCommand,
      [],
      { out: "x", atByte: "1" },
      /--at-byte: needs --append/,
    ],
    [
      "an unknown --param",
      callCommand(operation("getDatabase")) as CliCommand,
      [],
      { param: ["nope=1", "id=x"] },
      /has no parameter "nope"/,
    ],
  ])("a usage error: %s", async (_name, command, args, opts, message) => {
    await expect(async () => command.read(args, opts, env())).rejects.toThrow(UsageError);
    await expect(async () => command.read(args, opts, env())).rejects.toThrow(message);
  });

  it("each field's flag is found in the command value (what the error report names)", () => {
    expect(flagFor(listCommand as CliCommand, "count")).toBe("--page-size");
    expect(flagFor(management("db create"), "body.database_name")).toBe("--name");
    expect(flagFor(management("db get"), "id")).toBe("<id>");
    expect(flagFor(callCommand(operation("getDatabase")) as CliCommand, "id")).toBe("--param id");
  });

  it("no two commands share a path", () => {
    const paths = allCommands().map((c) => c.path.join(" "));
    expect(new Set(paths).size).toBe(paths.length);
  });
});
