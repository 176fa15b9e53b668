// A borderless, aligned table (the `kubectl get` look): headers, two spaces between columns, cells cut
// with "…" to fit the terminal's width. Ids are never cut (the other columns give up width first), and
// nothing is cut when there is no terminal width (stdout is not a terminal, or `--wide`). Colour is
// applied after padding, so escapes never skew widths.

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
}

/** Column widths computed once, so rows can be printed as they arrive (`logs tail`). */
export interface TableLayout<Row> {
  columns: readonly Column<Row>[];
  widths: number[];
  /** Whether cells longer than their column are cut with "…" (only to fit a terminal's width). */
  cut: boolean;
}

const GAP = "  ";
const SHRINK_FLOOR = 12;

/** Width of a string in terminal cells (code points; wide East Asian characters count as one). */
const width = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** A cell's text on one line. */
export function oneLine(text: string): string {
  return safeText(text.replace(/[\r\n\t]+/g, " "));
}

function cut(text: string, max: number): string {
  if (width(text) <= max) return text;
  if (max <= 1) return "…".slice(0, max);
  return [...text].slice(0, max - 1).join("") + "…";
}

/**
 * Widths from sample rows: each column as wide as its widest cell (up to `max` on a terminal); when the
 * total is wider than `terminalWidth`, the `shrink` columns give up the difference (down to a floor).
 * Without a `terminalWidth` (not a terminal, or `--wide`) every column is as wide as its widest cell
 * and nothing is cut.
 */
export function layoutTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  terminalWidth: number | undefined,
): TableLayout<Row> {
  const fit = terminalWidth !== undefined && terminalWidth > 0;
  const widths = columns.map((column) => {
    let w = Math.max(width(column.header), column.min ?? 0);
    for (const row of rows) w = Math.max(w, width(oneLine(column.value(row))));
    return column.max === undefined || column.id === true || !fit
      ? w
      : Math.min(w, Math.max(column.max, width(column.header)));
  });
  if (fit) {
    let excess =
      widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1) - terminalWidth;
    // Shrink the widest shrinkable column first, one character at a time in bulk steps.
    while (excess > 0) {
      let widest = -1;
      columns.forEach((column, i) => {
        if (column.shrink && !column.id && (widths[i] as number) > SHRINK_FLOOR)
          if (widest === -1 || (widths[i] as number) > (widths[widest] as number)) widest = i;
      });
      if (widest === -1) break;
      const take = Math.min(excess, (widths[widest] as number) - SHRINK_FLOOR, 8);
      widths[widest] = (widths[widest] as number) - take;
      excess -= take;
    }
  }
  return { columns, widths, cut: fit };
}

function renderLine<Row>(layout: TableLayout<Row>, cells: string[], row: Row | undefined): string {
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
  let out = renderHeader(layout, options.headerStyle) + "\n";
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
