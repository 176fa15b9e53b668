// Fitting a table to a width, measured in terminal cells: East Asian wide characters and emoji take
// two. The least important columns go first, then rows become vertical records; ids are never cut.
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { cut, layoutTable, renderTable, wrap, type Column } from "../../src/output/table.js";

interface Row {
  id: string;
  name: string;
  note: string;
  size: string;
}
const rows: Row[] = [
  { id: "db_1a2b3c4d", name: "会話キャッシュ-本番-東京", note: "🚀🚀🚀 launch day", size: "12" },
  { id: "db_9z8y7x6w", name: "orders", note: "plain ascii note here", size: "3400" },
];
const columns: Column<Row>[] = [
  { header: "ID", value: (r) => r.id, id: true },
  { header: "NAME", value: (r) => r.name, shrink: true },
  { header: "NOTE", value: (r) => r.note, shrink: true, drop: 2 },
  { header: "SIZE", value: (r) => r.size, right: true, drop: 1 },
];
const render = (width: number | undefined) =>
  renderTable(rows, columns, { terminalWidth: width, headerStyle: (s) => s });
const lines = (text: string) => text.split("\n").filter((l) => l !== "");

describe("fitting a table", () => {
  it("measures wide characters as two cells: columns line up on screen, not by code points", () => {
    const out = lines(render(undefined));
    // NAME's first cell is 24 cells wide (12 wide characters) but 14 code points: padded by cells,
    // every line ends (SIZE is right-aligned) at the same cell, and NOTE starts at the same cell.
    expect(new Set(out.map((l) => stringWidth(l))).size).toBe(1);
    const note = out.map((l, i) =>
      stringWidth(l.slice(0, l.indexOf(i === 0 ? "NOTE" : (rows[i - 1] as Row).note))),
    );
    expect(new Set(note).size).toBe(1);
  });

  it.each([
    // [width, the headers shown]
    [80, ["ID", "NAME", "NOTE", "SIZE"]],
    [50, ["ID", "NAME", "NOTE", "SIZE"]],
    // NOTE (drop 2) goes before SIZE (drop 1).
    [40, ["ID", "NAME", "SIZE"]],
    [30, ["ID", "NAME"]],
  ])("at %i columns: no line wider, ids whole, headers %j", (width, headers) => {
    const out = lines(render(width));
    expect(out[0]?.split(/\s+/)).toEqual(headers);
    for (const line of out) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    for (const row of rows) expect(out.join("\n")).toContain(`${row.id} `);
  });

  it("gives vertical records when even the id and the floors do not fit, values wrapped whole", () => {
    const layout = layoutTable(rows, columns, 20);
    expect(layout.vertical).toBe(20);
    const out = render(20);
    expect(out).not.toMatch(/^ID\s+NAME/m);
    for (const line of lines(out)) expect(stringWidth(line)).toBeLessThanOrEqual(20);
    const records = out.trimEnd().split("\n\n");
    expect(records).toHaveLength(2);
    expect(records[0]).toMatch(/^ID\s+db_1a2b3c4d$/m);
    // The wrapped name, joined again, is the whole name.
    const record = (records[0] as string).split("\n");
    const from = record.findIndex((l) => l.startsWith("NAME "));
    let to = from + 1;
    while (record[to]?.startsWith("      ")) to++;
    const name = record
      .slice(from, to)
      .map((l) => l.slice(6))
      .join("");
    expect(name).toBe(rows[0]?.name);
  });

  it("cuts and wraps by cells and never halves a wide character or an emoji", () => {
    expect(cut("会話キャッシュ", 6)).toBe("会話…");
    expect(stringWidth(cut("🚀🚀🚀🚀", 6))).toBeLessThanOrEqual(6);
    expect(cut("🚀🚀🚀🚀", 6)).toBe("🚀🚀…");
    expect(wrap("会話キャッシュ", 5)).toEqual(["会話", "キャ", "ッシ", "ュ"]);
    expect(wrap("👩‍👩‍👧🚀", 2)).toEqual(["👩‍👩‍👧", "🚀"]);
  });
});
