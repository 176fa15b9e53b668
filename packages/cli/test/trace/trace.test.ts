// `api-clients --trace`: the calls the run made, drawn on stderr when it ends.
import { describe, expect, it } from "vitest";
import { renderWaterfall, type TracedCall } from "../../src/output/trace.js";
import { runCli } from "../support/cli.js";
import { useEmulator } from "../support/emulator.js";

const env = useEmulator({ seedLogs: 30 });

describe("api-clients --trace", () => {
  it("draws each call with its attempts and the waits between them, after the output", async () => {
    env.emu.faults.add({ operationId: "listLogs", status: 503, retryAfter: 0.05, times: 1 });
    const result = await runCli(
      ["--trace", "logs", "list", "--count", "5", "--json", ...env.cli.base],
      env.cli.env,
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { events: unknown[] }).events).toHaveLength(5);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^trace: 1 call in \d+ ms$/);
    const rows = lines.slice(2).map((line) =>
      line
        .split("|")[0]!
        .trim()
        .split(/\s{2,}/),
    );
    expect(rows.map((r) => [r[0], r.at(-1)])).toEqual([
      ["listLogs (2 attempts)", "200"],
      ["#1 GET /v2/logs", "503"],
      ["retry wait", expect.stringMatching(/^\d+ ms$/) as string],
      ["#2 GET /v2/logs", "200"],
    ]);
    expect(rows[2]?.[2]).toBe("50 ms");
    // Every row has its bar on the same axis.
    expect(new Set(lines.slice(1).map((l) => l.length)).size).toBe(1);
  });

  it("draws a call that failed with its error, and prints nothing without --trace", async () => {
    env.emu.faults.add({ operationId: "listLogs", status: 401, times: 1 });
    const traced = await runCli(["--trace", "logs", "list", ...env.cli.base], env.cli.env);
    expect(traced.code).toBe(1);
    expect(traced.stderr).toMatch(/^listLogs +\d+ ms +\d+ ms +AuthenticationError +\|/m);
    expect(traced.stderr).toMatch(/^ {2}#1 GET \/v2\/logs +\d+ ms +\d+ ms +401 +\|/m);
    const plain = await runCli(["logs", "list", "--count", "1", ...env.cli.base], env.cli.env);
    expect(plain.stderr).not.toContain("trace:");
  });
});

describe("the waterfall", () => {
  const call = (start: number, end: number | undefined): TracedCall => ({
    operationId: "listLogs",
    method: "GET",
    path: "/v2/logs",
    start,
    ...(end === undefined ? {} : { end, status: 200 }),
    attempts: [{ attempt: 1, start, rateLimitWaitMs: 0, ...(end === undefined ? {} : { end }) }],
  });

  it("scales bars to the run: a call over the second half fills the right half", () => {
    const text = renderWaterfall({ calls: [call(0, 500), call(500, 1000)], dropped: 0 }, 20);
    const bars = text
      .split("\n")
      .slice(2, -1)
      .map((l) => l.split("|")[1]);
    expect(bars[0]).toBe(`${"█".repeat(10)}${" ".repeat(10)}`);
    expect(bars[2]).toBe(`${" ".repeat(10)}${"█".repeat(10)}`);
  });

  it("shows a call still in flight as unfinished, and says how many calls were not kept", () => {
    const text = renderWaterfall({ calls: [call(0, 100), call(50, undefined)], dropped: 3 });
    expect(text).toMatch(/^listLogs +50 ms +… +\|/m);
    expect(text).toContain("… and 3 more calls");
  });

  it("says so when there were no calls", () => {
    expect(renderWaterfall({ calls: [], dropped: 0 })).toBe("trace: no calls\n");
  });
});
