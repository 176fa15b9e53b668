// Issue 32, item 7: values of enum flags, exit codes, and `logs summary`'s window.
// - A value one or two edits from a known one is a usage error suggesting it (exit 2, nothing sent);
//   one that differs only in digits (a new region) or is far from every known one goes through (with
//   a warning for an open set); no suggestion names a deprecated flag.
// - `ExitCode` and `--help` list the same codes.
// - `logs summary` counts only the entries inside its window and says how many fell outside.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode, run } from "../../src/index.js";
import { editDistance } from "../../src/operations.js";
import { useEmulator } from "../support/emulator.js";

const f = useEmulator({ seedLogs: 200, seed: 3 });

async function cli(args: string[], base = f.cli.base) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const code = await run([...args, ...base], { stdout, stderr, stdin, env: f.cli.env });
  return { code, stdout: out, stderr: err };
}

describe("enum flags: a typo is a usage error suggesting the value", () => {
  it.each([
    ["faild", 1],
    ["FAILD", 1],
    ["delivred", 1],
    ["failde", 1],
    ["IN-PROGRES", 2],
    ["weird", 3],
  ])("edit distance of %s to the nearest state is %i", (value, edits) => {
    const states = ["FAILED", "DELIVERED", "IN_PROGRESS", "ERROR", "RETRY", "ACTIVE", "CREATED"];
    expect(Math.min(...states.map((s) => editDistance(value.toLowerCase(), s.toLowerCase())))).toBe(
      edits,
    );
  });

  it.each([
    ["--state faild", ["logs", "list", "--state", "faild"], "FAILED"],
    ["--state delivred", ["logs", "list", "--state", "delivred"], "DELIVERED"],
    [
      "db create --primary-region eu-wst-1",
      ["db", "create", "--name", "x", "--primary-region", "eu-wst-1"],
      "eu-west-1",
    ],
  ])("%s: exit 2, suggests %s, sends nothing", async (_name, args, want) => {
    const result = await cli(args);
    expect(result.stderr).toContain(`did you mean ${want}?`);
    expect(result.code).toBe(ExitCode.usage);
    expect(f.emu.requests()).toEqual([]);
  });

  it("a value far from every known state goes through with a warning (the set is open)", async () => {
    // The emulator knows no other state and answers 400; the point is that it was asked.
    const result = await cli(["logs", "list", "--state", "paused", "--json"]);
    expect(result.stderr).toMatch(
      /--state: "paused" is not a value known to this version .*sent as given/,
    );
    expect(f.emu.requests().map((r) => r.operationId)).toEqual(["listLogs"]);
  });

  it("a known value in any case, and a new sibling of a known region, go through without a word", async () => {
    const state = await cli(["logs", "list", "--state", "failed", "--json"]);
    expect(state).toMatchObject({ code: 0, stderr: "" });
    const region = await cli([
      "db",
      "create",
      "--name",
      "x",
      "--primary-region",
      "eu-west-9",
      "--dry-run",
    ]);
    expect(region.code, region.stderr).toBe(0);
    expect(region.stderr).not.toMatch(/did you mean/);
  });

  it("a mistyped flag is never answered with the deprecated --count", async () => {
    const result = await cli(["logs", "list", "--columns", "a,b"]);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toMatch(/unknown option '--columns'/);
    expect(result.stderr).not.toContain("--count");
    const help = await cli(["logs", "list", "--help"]);
    expect(help.stdout).not.toContain("--count");
    // Still accepted.
    const counted = await cli(["logs", "list", "--count", "5", "--json"]);
    expect(counted.code, counted.stderr).toBe(0);
  });
});

describe("exit codes", () => {
  it("--help lists every code of ExitCode, and ExitCode every code the binary uses", async () => {
    const help = await cli(["--help"], []);
    const listed = [...help.stdout.matchAll(/^ {2}(\d+) {2,}/gm)].map((m) => Number(m[1]));
    expect(listed).toEqual(Object.values(ExitCode));
    expect(Object.values(ExitCode)).toEqual([0, 1, 2, 129, 130, 143]);
  });
});

describe("logs summary counts only its window", () => {
  const FROM = 1_700_000_000_000;
  const TO = FROM + 3_600_000;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A server that ignores the window: one entry inside it, six ERROR entries a day before it.
    server = createServer((_req, res) => {
      const events = [
        { time: FROM + 60_000, messageId: "msg_in", state: "DELIVERED" },
        ...Array.from({ length: 6 }, (_, i) => ({
          time: FROM - 86_400_000 + i,
          messageId: `msg_out_${i}`,
          state: "ERROR",
        })),
      ];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ events }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const window = ["--from", String(FROM), "--to", String(TO)];
  it("--json: total 1, outside 6, no failure counted", async () => {
    const result = await cli(["logs", "summary", ...window, "--json"], ["--base-url", url]);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      total: number;
      outside: number;
      groups: { key: string; count: number }[];
      failures: { total: number };
    };
    expect(summary).toMatchObject({ total: 1, outside: 6, failures: { total: 0 } });
    expect(summary.groups).toEqual([{ key: "DELIVERED", count: 1 }]);
  });

  it("the table says how many fell outside", async () => {
    const result = await cli(["logs", "summary", ...window], ["--base-url", url]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^1 entries from .*, by state$/m);
    expect(result.stdout).toContain(
      "6 more the server returned fell outside this window and are not counted",
    );
    expect(result.stdout).not.toMatch(/^ERROR/m);
    expect(result.stdout).toMatch(/^Failures \(ERROR, FAILED\) per hour: 0 in all/m);
  });
});

describe("the error report names the flag of the command that failed", () => {
  it.each([
    ["call's --param", ["call", "listLogs", "--param", "count=5000"], "--param count (count)"],
    ["a logs filter", ["logs", "list", "--page-size", "0"], "--page-size (count)"],
    [
      "a management flag",
      ["db", "create", "--name", "x", "--budget", "1.5"],
      "--budget (body.budget)",
    ],
  ])("%s", async (_name, args, shown) => {
    const result = await cli(args);
    expect(result.stderr).toContain(`invalid ${shown}:`);
    expect(result.code).toBe(ExitCode.usage);
    expect(f.emu.requests()).toEqual([]);
  });
});
