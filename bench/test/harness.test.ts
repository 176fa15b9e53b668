// Keeps the bench harness working: runs every part's code path at tiny N and checks the rows' shape,
// that the fault rows can fail, and that the READMEs' figures are rendered from bench/results.json.
// Figures are not judged here (CI must not fail on them).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBench } from "../src/bench.js";
import { TINY } from "../src/config.js";
import { machine } from "../src/machine.js";
import { ENTRIES } from "../src/parts/overhead.js";
import { runFaultRows } from "../src/parts/faults.js";
import {
  benchBlock,
  END,
  extractBlock,
  README_FILES,
  renderReadmes,
  rootBlock,
  START,
} from "../src/render.js";
import { belowInRounds, formatTable, type Row } from "../src/report.js";
import {
  BENCH_MAJOR,
  compareVerdicts,
  gitState,
  readResults,
  RESULTS_FILE,
  ROOT,
  type Results,
} from "../src/results.js";

const positive = (value: Row["ours"] | Row["peer"]) =>
  typeof value === "number" ? Number.isFinite(value) && value > 0 : typeof value === "string";

describe("bench harness at tiny N", () => {
  let rows: Row[] = [];

  it("runs all seven parts without a harness error", async () => {
    rows = await runBench(TINY);
    const errors = rows.filter((r) => r.verdict === "ERROR");
    expect(errors.map((r) => `${r.name}: ${r.note}`)).toEqual([]);
    expect(new Set(rows.map((r) => r.part))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]));
  });

  it("gives every row a measured figure and a consistent ratio", () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      expect(row.name).not.toBe("");
      expect(positive(row.ours), `${row.name}: ours = ${String(row.ours)}`).toBe(true);
      if (row.peer !== null) expect(positive(row.peer), `${row.name}: peer`).toBe(true);
      if (row.spread !== undefined) {
        // Rows measured in rounds are judged on the median of the per-round ratios.
        expect(row.ratio).toBe(row.spread.median);
        expect(row.spread.q1).toBeLessThanOrEqual(row.spread.median);
        expect(row.spread.median).toBeLessThanOrEqual(row.spread.q3);
      } else if (typeof row.ours === "number" && typeof row.peer === "number") {
        expect(row.ratio).toBeCloseTo(row.ours / row.peer, 6);
      }
      expect(["pass", "FAIL", "inconclusive", "info", "n/a"]).toContain(row.verdict);
    }
  });

  it("measures every entry point sequentially and 16 (here 4) in flight, beside raw fetch", () => {
    const overhead = rows.filter((r) => r.part === 1 && r.name.startsWith("overhead "));
    const mode = `${TINY.overhead.concurrency} in flight`;
    expect(overhead.map((r) => r.name)).toEqual([
      ...ENTRIES.map((e) => `overhead sequential: ${e} vs bare openapi-fetch`),
      ...ENTRIES.map((e) => `overhead ${mode}: ${e} vs bare openapi-fetch`),
    ]);
    for (const row of overhead) {
      expect(row.spread?.rounds).toBe(TINY.overhead.rounds);
      expect(row.also?.label).toBe("raw fetch");
      expect(row.target).toBe("≥ 0.95×");
    }
  });

  it("measures its noise floor in each mode: bare openapi-fetch against itself, not judged", () => {
    const floor = rows.filter((r) => r.part === 1 && r.name.startsWith("noise floor "));
    const mode = `${TINY.overhead.concurrency} in flight`;
    expect(floor.map((r) => r.name)).toEqual([
      "noise floor sequential: bare openapi-fetch vs itself",
      `noise floor ${mode}: bare openapi-fetch vs itself`,
    ]);
    for (const row of floor) {
      expect(row.verdict).toBe("info");
      expect(row.spread?.rounds).toBe(TINY.overhead.rounds);
      expect(row.ratio).toBeGreaterThan(0);
    }
  });

  it("measures the cost of tracing: @api-clients/otel subscribed against unsubscribed", () => {
    const tracing = rows.filter((r) => r.part === 1 && r.name.startsWith("tracing: "));
    expect(tracing.map((r) => r.name)).toEqual([
      "tracing: logs.list() with @api-clients/otel subscribed vs unsubscribed",
    ]);
    expect(tracing[0]?.spread?.rounds).toBe(TINY.overhead.rounds);
    expect(tracing[0]?.target).toBe("≥ 0.85×");
    expect(tracing[0]?.ours).toBeGreaterThan(0);
  });

  it("judges every memory row on the median and IQR of its rounds", () => {
    const memory = rows.filter((r) => r.unit === "MiB");
    expect(memory.map((r) => r.name)).toEqual([
      "paging memory, peak heap growth: logs.iterate() vs raw loop",
      "paging memory, peak RSS growth: logs.iterate() vs raw loop",
      "export memory, peak RSS growth: api-clients logs export vs raw-fetch NDJSON loop",
    ]);
    for (const row of memory) {
      expect(row.oursSpread?.median).toBe(row.ours);
      expect(row.verdict).toBe(belowInRounds(row.oursSpread!, 64));
    }
    expect(memory[0]?.oursSpread?.rounds).toBe(TINY.memory.rounds);
    expect(memory[2]?.oursSpread?.rounds).toBe(TINY.pagination.exportRounds);
  });

  it("reports the peer's fault behaviour and our recovery", () => {
    const faults = rows.filter((r) => r.part === 3 && r.target === "ours recovers");
    expect(faults).toHaveLength(3);
    for (const row of faults) expect(row.ours).toMatch(/^recovered, \d+ attempts?$/);
    expect(rows.filter((r) => r.name.startsWith("faults: "))).toHaveLength(5);
  });

  it("breaks each client's bundle down by feature", () => {
    for (const name of ["createLogsClient", "createManagementClient"]) {
      const row = rows.find((r) => r.name === `bundle: ${name} (min+gz)`);
      const features = row?.breakdown?.map((f) => f.feature) ?? [];
      expect(features).toEqual(expect.arrayContaining(["openapi-fetch", "errors", "client code"]));
      expect(features).not.toContain("other");
    }
  });

  it("formats a table with one line per row", () => {
    const table = formatTable(rows);
    for (const row of rows) expect(table).toContain(row.name);
  });

  it("renders every row into the README blocks, stamped with the bench version and commit", () => {
    const results: Results = {
      benchMajor: BENCH_MAJOR,
      mode: "tiny",
      date: new Date().toISOString(),
      durationS: 1,
      git: gitState(),
      machine: { ...machine(), loadAverage: [0, 0, 0] },
      parts: [1, 2, 3, 4, 5, 6, 7],
      rows,
    };
    const block = benchBlock(results);
    for (const row of rows) expect(block).toContain(row.name.replace(/\|/g, "\\|"));
    const stamp = `bench v${BENCH_MAJOR}, commit ${results.git.commit}`;
    expect(block).toContain(stamp);
    expect(rootBlock(results)).toContain(stamp);
    expect(block).toContain("Tiny run");
  });
});

describe("fault rows", () => {
  it("fail when the client's retries are broken (maxRetries: 0)", async () => {
    const rows = await runFaultRows(TINY, { maxRetries: 0 });
    const overBudget = rows.filter((r) => /budget: \d+ retries/.test(r.name));
    expect(overBudget).toHaveLength(3);
    for (const row of overBudget) {
      expect(row.verdict, `${row.name}: ${row.note}`).toBe("FAIL");
      expect(row.note).toMatch(/1 attempts, expected 3/);
    }
  });
});

describe("verdicts", () => {
  const spread = (q1: number, median: number, q3: number) => ({ q1, median, q3, rounds: 7 });

  it("a figure judged in rounds is decided only when its whole IQR is on one side", () => {
    expect(belowInRounds(spread(50, 55, 63.9), 64)).toBe("pass");
    expect(belowInRounds(spread(60, 63, 66), 64)).toBe("inconclusive");
    expect(belowInRounds(spread(64, 70, 75), 64)).toBe("FAIL");
  });

  it("compares two runs' verdicts: agreements, flips, and rows decided in one run only", () => {
    const row = (name: string, verdict: Row["verdict"]): Row => ({
      part: 1,
      name,
      ours: 1,
      peer: 1,
      unit: "",
      ratio: 1,
      target: "—",
      verdict,
    });
    const earlier = {
      git: { commit: "a".repeat(40) },
      date: "2026-11-01T00:00:00.000Z",
      rows: [row("a", "pass"), row("b", "FAIL"), row("c", "pass"), row("d", "info")],
    } as Results;
    const now = [row("a", "pass"), row("b", "pass"), row("c", "inconclusive"), row("d", "info")];
    expect(compareVerdicts(earlier, now)).toEqual({
      commit: "a".repeat(40),
      date: "2026-11-01T00:00:00.000Z",
      agree: 1,
      flips: [{ name: "b", before: "FAIL", after: "pass" }],
      undecided: [{ name: "c", before: "pass", after: "inconclusive" }],
    });
  });
});

describe("published figures", () => {
  it("the READMEs' blocks are rendered from bench/results.json of the current bench version", async () => {
    const results = readResults(RESULTS_FILE);
    const rendered = await renderReadmes(results);
    for (const key of Object.keys(README_FILES) as (keyof typeof README_FILES)[]) {
      const current = readFileSync(join(ROOT, README_FILES[key]), "utf8");
      expect(extractBlock(current), `${README_FILES[key]}: run \`pnpm bench:render\``).toBe(
        extractBlock(rendered[key]),
      );
    }
  });

  it("rejects a results file of another bench major version", () => {
    const results = JSON.parse(readFileSync(RESULTS_FILE, "utf8")) as Results;
    const file = join(mkdtempSync(join(tmpdir(), "bench-")), "results.json");
    writeFileSync(file, JSON.stringify({ ...results, benchMajor: BENCH_MAJOR - 1 }));
    expect(() => readResults(file)).toThrow(
      `bench v${BENCH_MAJOR - 1}, the bench is v${BENCH_MAJOR}`,
    );
  });

  it("would notice a README block from another commit or edited by hand", async () => {
    const results = readResults(RESULTS_FILE);
    const other = await renderReadmes({
      ...results,
      git: { ...results.git, commit: "0".repeat(40) },
    });
    const current = readFileSync(join(ROOT, README_FILES.bench), "utf8");
    expect(extractBlock(other.bench)).not.toBe(extractBlock(current));
    expect(current).toMatch(new RegExp(`^${START}$[\\s\\S]*^${END}$`, "m"));
  });
});
