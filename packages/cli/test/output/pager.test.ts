// When long output goes through the pager: only on a terminal, only when taller than it, never for
// JSON or with --no-pager; `PAGER` (or `API_CLIENTS_PAGER`) names it, `less -FRX` by default.
import { describe, expect, it } from "vitest";
import { pagerFor, type PagerInput } from "../../src/output/pager.js";

const base: PagerInput = { tty: true, rows: 40, env: {}, pager: true, json: false, lines: 100 };

describe("pagerFor", () => {
  it.each<[string, Partial<PagerInput>, string | undefined]>([
    ["a long table on a terminal: less -FRX", {}, "less -FRX"],
    ["PAGER", { env: { PAGER: "most" } }, "most"],
    [
      "API_CLIENTS_PAGER over PAGER",
      { env: { PAGER: "most", API_CLIENTS_PAGER: "bat -p" } },
      "bat -p",
    ],
    ["PAGER empty: none", { env: { PAGER: "" } }, undefined],
    ["PAGER=cat: none", { env: { PAGER: "cat" } }, undefined],
    ["not a terminal", { tty: false }, undefined],
    ["--no-pager", { pager: false }, undefined],
    ["--json / --jq", { json: true }, undefined],
    ["fits the terminal", { lines: 39 }, undefined],
    ["as tall as the terminal", { lines: 40 }, "less -FRX"],
    ["rows unknown: 24", { rows: undefined, lines: 23 }, undefined],
  ])("%s", (_, given, want) => {
    expect(pagerFor({ ...base, ...given })).toBe(want);
  });
});
