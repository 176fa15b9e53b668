// Result rows, their verdicts and the table printed on stdout.
import type { FeatureBytes } from "./parts/bundle.js";
import { median, summarize, type Spread } from "./support/stats.js";

/**
 * How a row is judged: a target met, missed, or not decided by the rounds (the interquartile range of
 * the per-round ratio crosses the target); a figure without a target; a peer that could not run; or a
 * part whose harness broke (the only verdict that makes the run exit non-zero).
 */
export type Verdict = "pass" | "FAIL" | "inconclusive" | "info" | "n/a" | "ERROR";

/** One line of the results table (and of `results.json`). */
export interface Row {
  /** Which part of the bench (1–6). */
  part: number;
  /** What is measured, e.g. `overhead sequential: logs.list() vs bare openapi-fetch`. */
  name: string;
  /** Our figure (a number with `unit`, or a short text for behaviour rows); the median round. */
  ours: number | string;
  /** The baseline or peer figure, or a text saying why there is none; the median round. */
  peer: number | string | null;
  /** Unit of `ours` and `peer`, e.g. `req/s`, `entries/s`, `B gz`, `ms`, `MiB`. */
  unit: string;
  /**
   * The ratio judged against the target: the median of the per-round ratios `ours / peer` when
   * `spread` is set (interleaved rounds), else `ours / peer`.
   */
  ratio: number | null;
  /** Median and interquartile range of the per-round ratio, for rows measured in rounds. */
  spread?: Spread;
  /**
   * For rows judged on our own figure rather than a ratio (memory): its median and interquartile
   * range over the rounds (`ours` is the median).
   */
  oursSpread?: Spread;
  /** A second ratio reported beside the judged one (part 1: the same entry point vs raw fetch). */
  also?: { label: string; peer: number; spread: Spread };
  /** The target in words, e.g. `≥ 0.95×`, or `—`. */
  target: string;
  /** Whether the target is met. */
  verdict: Verdict;
  /** Extra facts: rounds, spread, what the peer did. */
  note?: string;
  /** Part 4: what the bundle is made of, by feature, largest first. */
  breakdown?: FeatureBytes[];
}

/** `a / b`, or null when either is missing or b is 0. */
export function ratioOf(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || b === 0 || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  return a / b;
}

/** `pass` when `ratio >= min`, `FAIL` otherwise, `n/a` without a ratio (for single measurements). */
export function atLeast(ratio: number | null, min: number): Verdict {
  if (ratio === null) return "n/a";
  return ratio >= min ? "pass" : "FAIL";
}

/**
 * The verdict of a ratio measured in rounds against `≥ min`: `pass` when even the first quartile
 * meets it, `FAIL` when even the third quartile misses it, `inconclusive` when the interquartile range
 * crosses the target.
 */
export function atLeastInRounds(spread: Spread, min: number): Verdict {
  if (spread.q1 >= min) return "pass";
  if (spread.q3 < min) return "FAIL";
  return "inconclusive";
}

/**
 * The verdict of our own figure measured in rounds against `< max`: `pass` when even the third quartile
 * is below it, `FAIL` when even the first quartile reaches it, `inconclusive` when the interquartile
 * range crosses it.
 */
export function belowInRounds(spread: Spread, max: number): Verdict {
  if (spread.q3 < max) return "pass";
  if (spread.q1 >= max) return "FAIL";
  return "inconclusive";
}

/**
 * A row judged on our own figure measured in rounds against `< max` (memory), beside the baseline's
 * rounds: our median with its interquartile range, the baseline's median, and the ratio of the two.
 */
export function belowTargetRow(
  row: Pick<Row, "part" | "name" | "unit" | "note">,
  ours: readonly number[],
  base: readonly number[],
  max: number,
): Row {
  const spread = summarize(ours);
  return {
    ...row,
    ours: spread.median,
    peer: median(base),
    ratio: ratioOf(spread.median, median(base)),
    oursSpread: spread,
    target: `ours < ${max} ${row.unit}`,
    verdict: belowInRounds(spread, max),
  };
}

/** `0.972× [0.951–0.990]`: a median ratio with its interquartile range. */
export function showSpread(s: Spread): string {
  const f = (v: number) => v.toFixed(v >= 10 ? 1 : 3);
  return `${f(s.median)}× [${f(s.q1)}–${f(s.q3)}]`;
}

/** A figure with its unit, grouped in thousands, 0–2 decimals by magnitude. */
export function showValue(value: number | string | null, unit: string): string {
  if (value === null) return "—";
  if (typeof value === "string") return value;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = value.toLocaleString("en-US", { maximumFractionDigits: digits });
  return unit === "" ? text : `${text} ${unit}`;
}

/** The "ours" cell of a row: the figure, with its interquartile range when it was judged in rounds. */
export function showOurs(row: Row): string {
  const value = showValue(row.ours, row.unit);
  if (row.oursSpread === undefined) return value;
  const f = (v: number) => showValue(v, "");
  return `${value} [${f(row.oursSpread.q1)}–${f(row.oursSpread.q3)}]`;
}

/** The ratio cell of a row: median and IQR for rounds, a plain ratio otherwise. */
export function showRatio(row: Row): string {
  if (row.spread !== undefined) return showSpread(row.spread);
  return row.ratio === null ? "—" : `${row.ratio.toFixed(row.ratio >= 10 ? 1 : 3)}×`;
}

/** Formats rows as an aligned text table (name, ours, peer, ratio [IQR], also, target, result). */
export function formatTable(rows: readonly Row[]): string {
  const header = [
    "#",
    "name",
    "ours",
    "peer / baseline",
    "ratio [IQR]",
    "also",
    "target",
    "result",
  ];
  const cells = rows.map((r) => [
    String(r.part),
    r.name,
    showOurs(r),
    showValue(r.peer, r.unit),
    showRatio(r),
    r.also === undefined ? "" : `vs ${r.also.label} ${showSpread(r.also.spread)}`,
    r.target,
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => (i >= 2 && i <= 4 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  const notes = rows
    .map((r, i) => (r.note ? `  [${i + 1}] ${r.name}: ${r.note}` : ""))
    .filter((n) => n !== "");
  return [line(header), rule, ...cells.map(line), "", "Notes:", ...notes].join("\n");
}
