// Result rows, their verdicts and the table printed on stdout.

/**
 * How a row is judged: a target met or missed, a figure without a target, a peer that could not run, or
 * a part whose harness broke (the only verdict that makes the run exit non-zero).
 */
export type Verdict = "pass" | "FAIL" | "info" | "n/a" | "ERROR";

/** One line of the results table (and of `results.json`). */
export interface Row {
  /** Which part of the bench (1–6). */
  part: number;
  /** What is measured, e.g. `overhead: sequential, logs.list() vs raw fetch`. */
  name: string;
  /** Our figure (a number with `unit`, or a short text for behaviour rows). */
  ours: number | string;
  /** The baseline or peer figure, or a text saying why there is none. */
  peer: number | string | null;
  /** Unit of `ours` and `peer`, e.g. `req/s`, `entries/s`, `bytes`, `ms`, `MiB`. */
  unit: string;
  /** `ours / peer` when both are numbers. */
  ratio: number | null;
  /** The target in words, e.g. `ratio ≥ 0.90`, or `—`. */
  target: string;
  /** Whether the target is met. */
  verdict: Verdict;
  /** Extra facts: rounds, spread, what the peer did. */
  note?: string;
}

/** `a / b`, or null when either is missing or b is 0. */
export function ratioOf(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || b === 0 || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  return a / b;
}

/** `pass` when `ratio >= min`, `FAIL` otherwise, `n/a` without a ratio. */
export function atLeast(ratio: number | null, min: number): Verdict {
  if (ratio === null) return "n/a";
  return ratio >= min ? "pass" : "FAIL";
}

function show(value: number | string | null, unit: string): string {
  if (value === null) return "—";
  if (typeof value === "string") return value;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = value.toLocaleString("en-US", { maximumFractionDigits: digits });
  return unit === "" ? text : `${text} ${unit}`;
}

/** Formats rows as an aligned text table (name, ours, peer, ratio, target, result). */
export function formatTable(rows: readonly Row[]): string {
  const header = ["#", "name", "ours", "peer / baseline", "ratio", "target", "result"];
  const cells = rows.map((r) => [
    String(r.part),
    r.name,
    show(r.ours, r.unit),
    show(r.peer, r.unit),
    r.ratio === null ? "—" : `${r.ratio.toFixed(r.ratio >= 10 ? 1 : 3)}×`,
    r.target,
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: readonly string[]) =>
    c.map((v, i) => (i >= 2 && i <= 4 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  const notes = rows
    .map((r, i) => (r.note ? `  [${i + 1}] ${r.name}: ${r.note}` : ""))
    .filter((n) => n !== "");
  return [line(header), rule, ...cells.map(line), "", "Notes:", ...notes].join("\n");
}
