// A borderless, aligned table (the `kubectl get` look): headers, two spaces between columns, cells cut
// with "…" to fit the terminal's width. Ids are never cut (the other columns give up width first), and
// nothing is cut when there is no terminal width (stdout is not a terminal, or `--wide`). Colour is
// applied after padding, so escapes never skew widths.

import stringWidth from "string-width";
import { safeText } from "./safe.js";

/** One column of a table. */
export interface Column<Row> {
  header: string;
  /** The cell's text (newlines and tabs are shown as spaces). */
  value: (row: Row) => string;
  /** Colours the already padded cell. */
  color?: (cell: string, row: Row) => string;
  /** Widest the column may grow, in characters. @default unlimited */
  max?: number;
  /** Narrowest it is, even when every sample cell is shorter. @default the header's width */
  min?: number;
  /** Whether the column gives up width first when the table is wider than the terminal. @default false */
  shrink?: boolean;
  /** Right-align (numbers). @default false */
  right?: boolean;
  /**
   * An identifier (message id, database id): shown whole, never cut, however wide; `max` and
   * `shrink` do not apply. @default false
   */
  id?: boolean;
  /**
   * How readily the column is left out when the table cannot fit the terminal even with every
   * `shrink` column at its floor: columns with the highest `drop` go first; without it, never.
   */
  drop?: number;
  /**
   * A shorter form of the cell (a time without its year, milliseconds and offset), used when the
   * table does not fit the terminal, before any column is left out.
   */
  narrow?: (row: Row) => string;
}

/** Column widths computed once, so rows can be printed as they arrive (`logs tail`). */
export interface TableLayout<Row> {
  columns: readonly Column<Row>[];
  widths: number[];
  /** Whether cells longer than their column are cut with "…" (only to fit a terminal's width). */
  cut: boolean;
  /**
   * When no table fits the terminal: each row is printed as a block of `HEADER  value` lines (values
   * wrapped at this width, never cut), blocks separated by a blank line. @default undefined (a table)
   */
  vertical?: number;
}

const GAP = "  ";
const SHRINK_FLOOR = 12;

/** Width of a string in terminal cells: East Asian wide characters and emoji take two. */
export const width = (text: string): number => stringWidth(text);

/** A cell's text on one line. */
export function oneLine(text: string): string {
  return safeText(text.replace(/[\r\n\t]+/g, " "));
}

const segmenter = new Intl.Segmenter();
const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

/** `text` cut to at most `max` cells, ending in "…" when cut (a wide character is never halved). */
export function cut(text: string, max: number): string {
  if (width(text) <= max) return text;
  if (max <= 1) return "…".slice(0, max);
  let out = "";
  let used = 0;
  for (const g of graphemes(text)) {
    const w = width(g);
    if (used + w > max - 1) break;
    out += g;
    used += w;
  }
  return out + "…";
}

/** `text` broken into lines of at most `max` cells (hard breaks: nothing is lost). */
export function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  let used = 0;
  for (const g of graphemes(text)) {
    const w = width(g);
    if (used + w > max && line !== "") {
      lines.push(line);
      line = "";
      used = 0;
    }
    line += g;
    used += w;
  }
  lines.push(line);
  return lines;
}

/**
 * Widths from sample rows: each column as wide as its widest cell (up to `max` on a terminal); when the
 * total is wider than `terminalWidth`, the `shrink` columns give up the difference (down to a floor).
 * Without a `terminalWidth` (not a terminal, or `--wide`) every column is as wide as its widest cell
 * and nothing is cut.
 */
export function layoutTable<Row>(
  rows: readonly Row[],
  wholeColumns: readonly Column<Row>[],
  terminalWidth: number | undefined,
): TableLayout<Row> {
  const fit = terminalWidth !== undefined && terminalWidth > 0;
  const measure = (columns: readonly Column<Row>[]) =>
    columns.map((column) => {
      let w = Math.max(width(column.header), column.min ?? 0);
      for (const row of rows) w = Math.max(w, width(oneLine(column.value(row))));
      return column.max === undefined || column.id === true || !fit
        ? w
        : Math.min(w, Math.max(column.max, width(column.header)));
    });
  const whole = measure(wholeColumns);
  if (!fit) return { columns: wholeColumns, widths: whole, cut: false };
  const fitted = shrink(
    wholeColumns,
    whole,
    wholeColumns.map(() => true),
    terminalWidth,
  );
  if (fitted !== undefined) return { columns: wholeColumns, widths: fitted, cut: true };
  // Then the shorter forms of the columns that have one; then leave out the least important columns
  // (highest `drop`) one at a time until the rest fit with every `shrink` column at its floor; when
  // nothing more can go and it still does not fit, the rows are printed as vertical records.
  const allColumns = wholeColumns.map((c) => (c.narrow ? { ...c, value: c.narrow } : c));
  const natural = measure(allColumns);
  const order = allColumns
    .map((column, i) => ({ drop: column.drop, i }))
    .filter((c): c is { drop: number; i: number } => c.drop !== undefined && !allColumns[c.i]?.id)
    .sort((a, b) => b.drop - a.drop || b.i - a.i)
    .map((c) => c.i);
  const kept = allColumns.map(() => true);
  for (;;) {
    const widths = shrink(allColumns, natural, kept, terminalWidth);
    if (widths !== undefined) {
      const columns = allColumns.filter((_, i) => kept[i]);
      return { columns, widths: widths.filter((_, i) => kept[i]), cut: true };
    }
    const next = order.shift();
    if (next === undefined) break;
    kept[next] = false;
  }
  return { columns: wholeColumns, widths: whole, cut: false, vertical: terminalWidth };
}

/** The widths with the `shrink` columns narrowed (widest first) to fit, or undefined when they cannot. */
function shrink<Row>(
  columns: readonly Column<Row>[],
  natural: readonly number[],
  kept: readonly boolean[],
  terminalWidth: number,
): number[] | undefined {
  const widths = [...natural];
  const count = kept.filter(Boolean).length;
  let excess =
    widths.reduce((a, b, i) => a + (kept[i] ? b : 0), 0) + GAP.length * (count - 1) - terminalWidth;
  const floor = (i: number) =>
    Math.min(natural[i] as number, Math.max(SHRINK_FLOOR, width(columns[i]?.header ?? "")));
  while (excess > 0) {
    let widest = -1;
    columns.forEach((column, i) => {
      if (kept[i] && column.shrink && !column.id && (widths[i] as number) > floor(i))
        if (widest === -1 || (widths[i] as number) > (widths[widest] as number)) widest = i;
    });
    if (widest === -1) return undefined;
    const take = Math.min(excess, (widths[widest] as number) - floor(widest), 8);
    widths[widest] = (widths[widest] as number) - take;
    excess -= take;
  }
  return widths;
}

/** One row as a vertical record: `HEADER  value` lines, values wrapped to the terminal's width. */
function renderVertical<Row>(layout: TableLayout<Row>, row: Row, total: number): string {
  const key = Math.max(...layout.columns.map((c) => width(c.header)));
  const room = Math.max(8, total - key - GAP.length);
  const lines: string[] = [];
  for (const column of layout.columns) {
    const text = oneLine(column.value(row));
    if (text === "") continue;
    // An id too long for the room after the key goes on its own line, whole (never broken, even
    // when it is wider than the terminal).
    const whole = column.id === true && width(text) > room;
    const parts = whole ? ["", text] : wrap(text, room);
    parts.forEach((part, i) => {
      const label = i === 0 ? column.header.padEnd(key) : " ".repeat(key);
      const shown = column.color ? column.color(part, row) : part;
      lines.push(whole && i > 0 ? shown : `${label}${GAP}${shown}`.trimEnd());
    });
  }
  return lines.join("\n");
}

function renderLine<Row>(layout: TableLayout<Row>, cells: string[], row: Row | undefined): string {
  if (layout.vertical !== undefined)
    return row === undefined ? "" : renderVertical(layout, row, layout.vertical) + "\n";
  const last = layout.columns.length - 1;
  return layout.columns
    .map((column, i) => {
      const w = layout.widths[i] as number;
      const whole = oneLine(cells[i] as string);
      // A row wider than the sample rows (a later `tail` row) pushes the next cells over rather than
      // losing the end of an id, or of anything when nothing is cut.
      const text = layout.cut && !column.id ? cut(whole, w) : whole;
      const pad = " ".repeat(Math.max(0, w - width(text)));
      const padded = column.right ? pad + text : i === last ? text : text + pad;
      return row !== undefined && column.color ? column.color(padded, row) : padded;
    })
    .join(GAP)
    .trimEnd();
}

/** The header line of a layout. */
export function renderHeader<Row>(layout: TableLayout<Row>, style: (s: string) => string): string {
  return style(
    renderLine(
      layout,
      layout.columns.map((c) => c.header),
      undefined,
    ),
  );
}

/** One row of a layout. */
export function renderRow<Row>(layout: TableLayout<Row>, row: Row): string {
  return renderLine(
    layout,
    layout.columns.map((c) => c.value(row)),
    row,
  );
}

/** A whole table: header and rows, each line ending in `\n`. */
export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: { terminalWidth: number | undefined; headerStyle: (s: string) => string },
): string {
  const layout = layoutTable(rows, columns, options.terminalWidth);
  let out = layout.vertical === undefined ? renderHeader(layout, options.headerStyle) + "\n" : "";
  for (const row of rows) out += renderRow(layout, row) + "\n";
  return out;
}

/** A two-column `field  value` table of one record, for `get` commands. */
export function renderRecord(
  record: Record<string, unknown>,
  options: { terminalWidth: number | undefined; keyStyle: (s: string) => string },
): string {
  const rows = Object.entries(record).map(([key, value]) => ({ key, value: formatValue(value) }));
  const layout = layoutTable(
    rows,
    [
      { header: "FIELD", value: (r) => r.key, color: (cell) => options.keyStyle(cell) },
      { header: "VALUE", value: (r) => r.value, shrink: true },
    ],
    options.terminalWidth,
  );
  let out = "";
  for (const row of rows) out += renderRow(layout, row) + "\n";
  return out;
}

/** A value as table text: strings as they are, absent as empty, the rest as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return JSON.stringify(value);
}
