// Part 4: minified + gzipped size of each client, bundled the same way (esbuild, ESM, browser platform),
// with a per-feature breakdown of each client's bundle from esbuild's metafile.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { BenchConfig } from "../config.js";
import { ratioOf, type Row } from "../report.js";
import { srcFile } from "../support/child.js";

/** Entry files under `src/bundle-entries/`, by label. */
export const BUNDLE_ENTRIES = {
  createLogsClient: "logs-client.ts",
  createManagementClient: "management-client.ts",
  "bare openapi-fetch": "openapi-fetch.ts",
  "qstash whole `Client` (not tree-shakable)": "qstash.ts",
} as const;

type Label = keyof typeof BUNDLE_ENTRIES;

/**
 * The targets in gzipped bytes (kB = 1,000 B, as size-limit counts; the management one with all 58
 * operations), the same as the budgets `.size-limit.json` enforces in CI (issue #30).
 */
export const BUNDLE_TARGETS: Partial<Record<Label, number>> = {
  createLogsClient: 16_000,
  createManagementClient: 17_500,
};

/** The features a client's bundle is made of, matched on the input file's path, first match wins. */
export const FEATURES: ReadonlyArray<readonly [feature: string, path: RegExp]> = [
  ["openapi-fetch", /\/openapi-fetch\//],
  ["generated tables", /\/(generated\/|enums\.js$)/],
  ["errors", /\/core\/dist\/(errors|internal\/status-text|internal\/redact)\.js$/],
  ["retry policy", /\/core\/dist\/(internal\/)?(retry-policy|retry-after|sleep)\.js$/],
  ["pagination", /\/(core\/dist\/(internal\/)?pagination|logs-client\/dist\/page)\.js$/],
  [
    "input rules / checker",
    /\/(core\/dist\/(internal\/)?(schema|validation)|logs-client\/dist\/params|management-client\/dist\/internal\/input-rules)\.js$/,
  ],
  ["tracing", /\/core\/dist\/internal\/tracing\.js$/],
  [
    "rate limit and deadline",
    /\/core\/dist\/internal\/(rate-limit|rate-limit-gate|rate-limit-headers|deadline)\.js$/,
  ],
  ["client options", /\/core\/dist\/internal\/(client-options|environment|auth)\.js$/],
  ["core transport / pipeline", /\/core\/dist\//],
  ["client code", /\/(logs|management)-client\/dist\//],
];

/** One feature's share of a bundle. */
export interface FeatureBytes {
  feature: string;
  /** Bytes in the minified output (exact, from esbuild's metafile). */
  minified: number;
  /** Estimated gzipped bytes: the bundle's gzipped size × this feature's share of the minified bytes. */
  gzEstimate: number;
  /** The input files, relative to the repository root. */
  files: string[];
}

/** Size of one bundle: minified bytes, gzipped bytes (level 9) and the per-feature breakdown. */
export interface BundleSize {
  minified: number;
  gzipped: number;
  features: FeatureBytes[];
}

/** The feature an input file of a bundle belongs to (`other` when none matches). */
export function featureOf(input: string): string {
  return FEATURES.find(([, path]) => path.test(input))?.[0] ?? "other";
}

/** Bundles one entry with esbuild (ESM, browser, minified) in memory and measures it. */
export async function bundleSize(entryFile: string): Promise<BundleSize> {
  const result = await build({
    entryPoints: [srcFile(`bundle-entries/${entryFile}`)],
    bundle: true,
    format: "esm",
    platform: "browser",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
    target: "es2022",
  });
  const code = result.outputFiles[0]!.contents;
  const minified = code.byteLength;
  const gzipped = gzipSync(code, { level: 9 }).byteLength;
  const output = Object.values(result.metafile.outputs)[0]!;
  const byFeature = new Map<string, { minified: number; files: string[] }>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (bytesInOutput === 0) continue;
    const feature = featureOf(input);
    const entry = byFeature.get(feature) ?? { minified: 0, files: [] };
    entry.minified += bytesInOutput;
    entry.files.push(input.replace(/^(\.\.\/)+/, "").replace(/^.*\/node_modules\//, ""));
    byFeature.set(feature, entry);
  }
  const features = [...byFeature]
    .map(([feature, f]) => ({
      feature,
      minified: f.minified,
      gzEstimate: Math.round((gzipped * f.minified) / minified),
      files: f.files.sort(),
    }))
    .sort((a, b) => b.minified - a.minified);
  return { minified, gzipped, features };
}

/** Runs part 4: the targets of both clients (with their breakdown) and the comparisons. */
export async function runBundle(_config: BenchConfig): Promise<Row[]> {
  const sizes = {} as Record<Label, BundleSize>;
  for (const [label, file] of Object.entries(BUNDLE_ENTRIES) as [Label, string][]) {
    sizes[label] = await bundleSize(file);
  }
  const rows: Row[] = [];
  for (const label of ["createLogsClient", "createManagementClient"] as const) {
    const size = sizes[label];
    const limit = BUNDLE_TARGETS[label]!;
    rows.push({
      part: 4,
      name: `bundle: ${label} (min+gz)`,
      ours: size.gzipped,
      peer: limit,
      unit: "B gz",
      ratio: ratioOf(size.gzipped, limit),
      target: `≤ ${(limit / 1_000).toFixed(1)} kB`,
      verdict: size.gzipped <= limit ? "pass" : "FAIL",
      note:
        `minified ${size.minified} B; peer column is the target; ` +
        size.features.map((f) => `${f.feature} ${f.minified} B min`).join(", "),
      breakdown: size.features,
    });
  }
  const compare = (ours: Label, base: Label): Row => ({
    part: 4,
    name: `bundle: ${ours} vs ${base}`,
    ours: sizes[ours].gzipped,
    peer: sizes[base].gzipped,
    unit: "B gz",
    ratio: ratioOf(sizes[ours].gzipped, sizes[base].gzipped),
    target: "—",
    verdict: "info",
    note: `minified ${sizes[ours].minified} B vs ${sizes[base].minified} B`,
  });
  rows.push(
    compare("createLogsClient", "qstash whole `Client` (not tree-shakable)"),
    compare("createLogsClient", "bare openapi-fetch"),
    compare("createManagementClient", "bare openapi-fetch"),
  );
  return rows;
}
