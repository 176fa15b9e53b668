#!/usr/bin/env node
// `pnpm api:report`: the public TypeScript surface of every public package (each `packages/*` that is
// not private, found on each run) in one reviewed file, `packages/<name>/api/<name>.api.md`, written by
// API Extractor from the built `dist/index.d.ts` (run `pnpm build` first). A change to a package's
// exported types shows up as a diff of that file.
//
//   pnpm api:report            rewrite the reports
//   pnpm api:report --check    exit 1 naming the packages whose report is stale (CI), rewrite nothing
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { manifestOf, PUBLIC_PACKAGES, REPO_ROOT } from "./lib/pack.mjs";

const check = process.argv.includes("--check");
const temp = join(tmpdir(), `api-report-${process.pid}`);

/** The report file of a package folder, relative to the repository. */
export const reportPath = (folder) => `packages/${folder}/api/${folder}.api.md`;

/** Runs API Extractor on one package; resolves to whether its report changed (or, with --check, would). */
function report(folder) {
  const projectFolder = join(REPO_ROOT, "packages", folder);
  const entry = join(projectFolder, "dist", "index.d.ts");
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: run \`pnpm build\` first`);
  }
  mkdirSync(join(projectFolder, "api"), { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder,
      mainEntryPointFilePath: entry,
      compiler: { tsconfigFilePath: join(projectFolder, "tsconfig.build.json") },
      apiReport: {
        enabled: true,
        reportFolder: join(projectFolder, "api"),
        reportTempFolder: join(temp, folder),
        reportFileName: `${folder}.api.md`,
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // Release tags (@public, @beta) are not this project's convention; a missing one is no news.
        extractorMessageReporting: {
          "ae-missing-release-tag": { logLevel: "none" },
          "ae-forgotten-export": { logLevel: "none", addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: "none" } },
      },
    },
    configObjectFullPath: join(projectFolder, "api-extractor.json"),
    packageJsonFullPath: join(projectFolder, "package.json"),
  });
  const result = Extractor.invoke(config, {
    localBuild: !check,
    showVerboseMessages: false,
    messageCallback: (message) => {
      // Warnings about the report itself are the point of --check; the rest is printed as usual.
      if (message.messageId === "console-api-report-changed" && check) message.handled = true;
    },
  });
  if (!result.succeeded && !result.apiReportChanged) {
    throw new Error(`API Extractor failed on ${manifestOf(folder).name}`);
  }
  return result.apiReportChanged;
}

try {
  const stale = [];
  for (const folder of PUBLIC_PACKAGES) {
    if (report(folder)) stale.push(folder);
  }
  if (check && stale.length > 0) {
    console.error(
      `api:report: stale report of ${stale.map((f) => manifestOf(f).name).join(", ")}: run \`pnpm build && pnpm api:report\`, review the diff of ${stale.map(reportPath).join(", ")}, and add a changeset for the change`,
    );
    process.exitCode = 1;
  } else {
    console.log(
      `api:report: ${PUBLIC_PACKAGES.length} packages, ${check ? "every report is up to date" : `${stale.length} report(s) rewritten`}`,
    );
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
