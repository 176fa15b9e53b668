// Keeps the bench harness working: runs every part's code path at tiny N and checks the rows' shape.
// Figures are not judged here (CI must not fail on them); only that each part measured something.
import { describe, expect, it } from "vitest";
import { runBench } from "../src/bench.js";
import { TINY } from "../src/config.js";
import { formatTable, type Row } from "../src/report.js";

const positive = (value: Row["ours"] | Row["peer"]) =>
  typeof value === "number" ? Number.isFinite(value) && value > 0 : typeof value === "string";

describe("bench harness at tiny N", () => {
  let rows: Row[] = [];

  it("runs all six parts without a harness error", async () => {
    rows = await runBench(TINY);
    const errors = rows.filter((r) => r.verdict === "ERROR");
    expect(errors.map((r) => `${r.name}: ${r.note}`)).toEqual([]);
    expect(new Set(rows.map((r) => r.part))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it("gives every row a measured figure and a consistent ratio", () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      expect(row.name).not.toBe("");
      expect(positive(row.ours), `${row.name}: ours = ${String(row.ours)}`).toBe(true);
      if (row.peer !== null) expect(positive(row.peer), `${row.name}: peer`).toBe(true);
      if (typeof row.ours === "number" && typeof row.peer === "number") {
        expect(row.ratio).toBeCloseTo(row.ours / row.peer, 6);
      }
      expect(["pass", "FAIL", "info", "n/a"]).toContain(row.verdict);
    }
  });

  it("reports the peer's fault behaviour and our recovery", () => {
    const faults = rows.filter((r) => r.part === 3 && r.target === "ours recovers");
    expect(faults).toHaveLength(3);
    for (const row of faults) expect(row.ours).toMatch(/^recovered, \d+ attempts?$/);
  });

  it("formats a table with one line per row", () => {
    const table = formatTable(rows);
    for (const row of rows) expect(table).toContain(row.name);
  });
});
