// Part 4: minified + gzipped size of each client, bundled the same way (esbuild, ESM, browser platform).
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
  "qstash Client": "qstash.ts",
} as const;

/** Size of one bundle: minified bytes and gzipped bytes (level 9). */
export interface BundleSize {
  minified: number;
  gzipped: number;
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
    logLevel: "silent",
    target: "es2022",
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

/** Runs part 4. */
export async function runBundle(_config: BenchConfig): Promise<Row[]> {
  const sizes: Record<string, BundleSize> = {};
  for (const [label, file] of Object.entries(BUNDLE_ENTRIES)) sizes[label] = await bundleSize(file);
  const size = (label: keyof typeof BUNDLE_ENTRIES) => sizes[label]!;
  const row = (
    name: string,
    ours: keyof typeof BUNDLE_ENTRIES,
    base: keyof typeof BUNDLE_ENTRIES,
  ): Row => ({
    part: 4,
    name,
    ours: size(ours).gzipped,
    peer: size(base).gzipped,
    unit: "B gz",
    ratio: ratioOf(size(ours).gzipped, size(base).gzipped),
    target: "—",
    verdict: "info",
    note: `minified ${size(ours).minified} B vs ${size(base).minified} B`,
  });
  return [
    row("bundle: createLogsClient vs qstash Client", "createLogsClient", "qstash Client"),
    row("bundle: createLogsClient vs bare openapi-fetch", "createLogsClient", "bare openapi-fetch"),
    row(
      "bundle: createManagementClient vs bare openapi-fetch",
      "createManagementClient",
      "bare openapi-fetch",
    ),
  ];
}
