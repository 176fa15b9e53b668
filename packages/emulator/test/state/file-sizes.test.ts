// The emulator's state lives in modules of one resource each, none over 300 lines (issue #34). Every
// internal module is held to that, stateful or not.
import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";

const DIR = new URL("../../src/internal/", import.meta.url);
const MAX_LINES = 300;
const modules = readdirSync(DIR).filter((f) => f.endsWith(".ts"));
const lines = (f: string): number => readFileSync(new URL(f, DIR), "utf8").split("\n").length - 1;

it("finds the state modules (the listing is not empty)", () => {
  for (const f of ["management-state.ts", "owned-indexes.ts", "logs-store.ts", "teams-state.ts"]) {
    expect(modules).toContain(f);
  }
});

it.each(modules)(`%s has at most ${MAX_LINES} lines`, (f) => {
  expect(lines(f)).toBeLessThanOrEqual(MAX_LINES);
});

it("the vector and search modules share one owned-index store (neither keeps its own map)", () => {
  for (const f of ["vector-state.ts", "search-state.ts"]) {
    const src = readFileSync(new URL(f, DIR), "utf8");
    expect(src).toContain("new OwnedIndexes");
    expect(src).not.toMatch(/new Map</);
  }
});
