// Renders `bench/results.json` into the tables of bench/README.md and the root README's performance
// section, between `<!-- bench:start -->` and `<!-- bench:end -->`; the block names the bench major
// version and the commit, so a test can tell a hand-edited or outdated table from a rendered one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import type { Row } from "./report.js";
import { showOurs, showRatio, showSpread, showValue } from "./report.js";
import { ROOT, type Agreement, type Results } from "./results.js";

/** Markers around the rendered block in each README, each alone on its line. */
export const START = "<!-- bench:start -->";
export const END = "<!-- bench:end -->";

/** The READMEs the bench renders into, relative to the repository root. */
export const README_FILES = { bench: "bench/README.md", root: "README.md" } as const;

const PART_TITLES: Record<number, string> = {
  1: "1. Per-request overhead",
  2: "2. Pagination",
  3: "3. Peer client and faults",
  4: "4. Bundle size",
  5: "5. Emulator throughput",
  6: "6. Toolchain",
  7: "7. Rate limit shared by processes",
};

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const table = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  [header, header.map(() => "---"), ...rows]
    .map((r) => `| ${r.map(cell).join(" | ")} |`)
    .join("\n");
const short = (sha: string) => sha.slice(0, 10);
const bytes = (n: number) => n.toLocaleString("en-US");

/** The first lines of every block: a machine-readable stamp, then where and how it was measured. */
function stamp(results: Results): string {
  const { git, machine } = results;
  const lines = [
    `<!-- rendered by \`pnpm bench:render\` from bench/results.json: bench v${results.benchMajor}, commit ${git.commit}; do not edit by hand -->`,
    "",
    `Measured by \`pnpm bench\` (bench v${results.benchMajor}, **${results.mode}** run, ` +
      `${Math.round(results.durationS)} s) at commit \`${short(git.commit)}\`` +
      ` (${git.dirty ? "**with uncommitted changes**" : "clean tree"}; client sources last changed at ` +
      `\`${short(git.sourceCommit)}\`) on ${machine.nproc} × ${machine.cpu}, ${machine.memoryGiB} GiB, ` +
      `Node ${machine.node}, ${machine.platform}, ${results.date.slice(0, 10)} ` +
      `(load average ${machine.loadAverage[0]?.toFixed(1) ?? "?"} at the start).`,
  ];
  if (results.mode !== "full") {
    lines.push(
      "",
      `> **${results.mode === "quick" ? "Quick" : "Tiny"} run**: fewer rounds and smaller N than ` +
        "`pnpm bench`; these are not the published figures.",
    );
  }
  if (results.note !== undefined && results.note !== "") {
    lines.push("", `> **Note:** ${results.note}`);
  }
  if (git.dirty) {
    lines.push("", `> Uncommitted changes at measurement: ${git.dirtyFiles.join(", ")}.`);
  }
  if (results.previous !== undefined) lines.push("", agreementLine(results.previous));
  return lines.join("\n");
}

/** Whether this run's verdicts agree with the full run before it. */
function agreementLine(a: Agreement): string {
  const list = (changes: Agreement["flips"]) =>
    changes.map((c) => `${c.name} (${c.before} → ${c.after})`).join("; ");
  const flips =
    a.flips.length === 0
      ? "no row went from `pass` to `FAIL` or back"
      : `**${a.flips.length} flipped**: ${list(a.flips)}`;
  const undecided =
    a.undecided.length === 0
      ? ""
      : `; decided in one run and \`inconclusive\` in the other: ${list(a.undecided)}`;
  return (
    `Against the previous full run (commit \`${short(a.commit)}\`, ${a.date.slice(0, 10)}): ` +
    `${a.agree} rows decided in both runs have the same verdict, ${flips}${undecided}.`
  );
}

function verdictCounts(rows: readonly Row[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  return ["pass", "FAIL", "inconclusive", "ERROR", "n/a", "info"]
    .filter((v) => counts.has(v))
    .map((v) => `${counts.get(v)} ${v}`)
    .join(", ");
}

/** Part 1: one line per entry point and mode, with both ratios. */
function overheadTable(rows: readonly Row[]): string {
  return table(
    [
      "Entry point",
      "Mode",
      "Ours",
      "Bare openapi-fetch",
      "Ratio to bare, median [IQR]",
      "Raw fetch",
      "Ratio to raw, median [IQR]",
      "Target",
      "Result",
    ],
    rows.map((r) => {
      const match = /^(?:overhead|noise floor) (.+): (.+) vs (?:bare openapi-fetch|itself)$/.exec(
        r.name,
      );
      return [
        `\`${match?.[2] ?? r.name}\``,
        match?.[1] ?? "",
        showValue(r.ours, r.unit),
        showValue(r.peer, r.unit),
        showRatio(r),
        r.also === undefined ? "—" : showValue(r.also.peer, r.unit),
        r.also === undefined ? "—" : showSpread(r.also.spread),
        r.target,
        r.verdict,
      ];
    }),
  );
}

function genericTable(rows: readonly Row[]): string {
  return table(
    ["Figure", "Ours", "Baseline / peer", "Ratio (median [IQR] for rounds)", "Target", "Result"],
    rows.map((r) => [
      r.name,
      showOurs(r),
      showValue(r.peer, r.unit),
      showRatio(r),
      r.target,
      r.verdict,
    ]),
  );
}

/** Part 4: the features of both clients' bundles side by side. */
function breakdownTable(rows: readonly Row[]): string {
  const clients = rows.filter((r) => r.breakdown !== undefined);
  if (clients.length === 0) return "";
  const features = [...new Set(clients.flatMap((r) => r.breakdown!.map((f) => f.feature)))];
  const label = (r: Row) => /^bundle: (\S+)/.exec(r.name)?.[1] ?? r.name;
  const header = ["Feature", ...clients.flatMap((r) => [`${label(r)} min`, "≈ gz"])];
  const body = features.map((feature) => [
    feature,
    ...clients.flatMap((r) => {
      const f = r.breakdown!.find((x) => x.feature === feature);
      return f === undefined ? ["—", "—"] : [`${bytes(f.minified)} B`, `${bytes(f.gzEstimate)} B`];
    }),
  ]);
  body.push([
    "**total**",
    ...clients.flatMap((r) => [
      `${bytes(r.breakdown!.reduce((n, f) => n + f.minified, 0))} B`,
      `${bytes(typeof r.ours === "number" ? r.ours : 0)} B`,
    ]),
  ]);
  return [
    "Per-feature breakdown (minified bytes from esbuild's metafile; gzipped bytes estimated as the",
    "bundle's gzipped size × the feature's share of the minified bytes):",
    "",
    table(header, body),
  ].join("\n");
}

/** What holds a missed bundle target back, from its breakdown. */
function bundleShortfall(r: Row): string {
  const over = typeof r.ours === "number" && typeof r.peer === "number" ? r.ours - r.peer : 0;
  const top = (r.breakdown ?? [])
    .slice(0, 4)
    .map((f) => `${f.feature} ≈ ${bytes(f.gzEstimate)} B gz`)
    .join(", ");
  return `${bytes(over)} B gz over the target; largest parts: ${top}`;
}

/** The rows whose target is missed or undecided, each with why. */
function openTargets(rows: readonly Row[]): string {
  const open = rows.filter((r) => r.verdict === "FAIL" || r.verdict === "inconclusive");
  if (open.length === 0) return "Every target is met.";
  return [
    "Targets missed (`FAIL`) or not decided by the rounds (`inconclusive`: the interquartile range of",
    "the per-round ratio, or of our figure for memory, crosses the target):",
    "",
    ...open.map((r) => {
      // A single measurement says how it was taken; a figure in rounds shows its interquartile range.
      const how = r.note && r.oursSpread === undefined ? ` (${r.note})` : "";
      const what = r.breakdown
        ? bundleShortfall(r)
        : r.spread
          ? `${showSpread(r.spread)} vs ${r.target}`
          : `${showOurs(r)} vs ${r.target}${how}`;
      return `- ${r.verdict}: ${r.name}: ${cell(what)}`;
    }),
  ].join("\n");
}

/** The block of bench/README.md: every part's table and notes, the bundle breakdown, open targets. */
export function benchBlock(results: Results): string {
  const parts = [...new Set(results.rows.map((r) => r.part))].sort((a, b) => a - b);
  const sections = parts.map((part) => {
    const rows = results.rows.filter((r) => r.part === part);
    const notes = rows
      .filter((r) => r.note)
      .map((r) => `- ${r.name}: ${cell(r.note!)}`)
      .join("\n");
    return [
      `#### ${PART_TITLES[part] ?? `Part ${part}`}`,
      "",
      part === 1 ? overheadTable(rows) : genericTable(rows),
      ...(part === 4 ? ["", breakdownTable(rows)] : []),
      "",
      "<details><summary>Notes</summary>",
      "",
      notes,
      "",
      "</details>",
    ].join("\n");
  });
  return [
    stamp(results),
    "",
    `Verdicts: ${verdictCounts(results.rows)}.`,
    "",
    ...sections.flatMap((s) => [s, ""]),
    "#### Open targets",
    "",
    openTargets(results.rows),
  ].join("\n");
}

/** The block of the root README: the judged rows and the peer comparisons. */
export function rootBlock(results: Results): string {
  const rows = results.rows.filter(
    (r) => r.target !== "—" || r.name.includes("qstash") || r.part === 5,
  );
  return [
    stamp(results),
    "",
    `Verdicts: ${verdictCounts(results.rows)}; method, every row and notes in ` +
      "[bench/README.md](bench/README.md).",
    "",
    genericTable(rows),
  ].join("\n");
}

/** Where the block of `text` is: the markers alone on their lines, start before end. */
function blockRange(text: string): { from: number; to: number } | undefined {
  const start = new RegExp(`^${START}$`, "m").exec(text);
  const end = new RegExp(`^${END}$`, "m").exec(text);
  if (start === null || end === null || end.index < start.index) return undefined;
  return { from: start.index + START.length, to: end.index };
}

/** The text between the markers of a file (without them), or undefined when it has none. */
export function extractBlock(text: string): string | undefined {
  const range = blockRange(text);
  return range === undefined ? undefined : text.slice(range.from, range.to).trim();
}

/** Replaces the text between the markers of `text` with `block`; throws without markers. */
export function replaceBlock(text: string, block: string, file: string): string {
  const range = blockRange(text);
  if (range === undefined) throw new Error(`${file}: no ${START} … ${END} lines`);
  return `${text.slice(0, range.from)}\n\n${block}\n\n${text.slice(range.to)}`;
}

/** Both READMEs with their blocks rendered from `results`, formatted by prettier as the repository is. */
export async function renderReadmes(
  results: Results,
  read: (file: string) => string = (file) => readFileSync(join(ROOT, file), "utf8"),
): Promise<Record<keyof typeof README_FILES, string>> {
  const render = async (file: string, block: string) => {
    const filepath = join(ROOT, file);
    const options = (await resolveConfig(filepath)) ?? {};
    return format(replaceBlock(read(file), block, file), { ...options, filepath });
  };
  return {
    bench: await render(README_FILES.bench, benchBlock(results)),
    root: await render(README_FILES.root, rootBlock(results)),
  };
}
