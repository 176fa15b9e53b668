// `pnpm bench:render [--results file] [--check] [--fresh]`: renders bench/results.json into the READMEs.
// --check: write nothing, exit 1 when a README's block differs from the rendering (or the results file
// is of another bench major version). --fresh: also exit 1 when packages/*/src changed after the
// measured commit.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { README_FILES, renderReadmes } from "./render.js";
import { readResults, RESULTS_FILE, ROOT, staleness } from "./results.js";

const { values } = parseArgs({
  options: {
    results: { type: "string" },
    check: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
  },
  strict: true,
});

const results = readResults(values.results ?? RESULTS_FILE);
const rendered = await renderReadmes(results);
let failed = false;
for (const key of Object.keys(README_FILES) as (keyof typeof README_FILES)[]) {
  const file = README_FILES[key];
  const path = join(ROOT, file);
  const current = readFileSync(path, "utf8");
  if (current === rendered[key]) {
    process.stdout.write(`${file}: up to date\n`);
  } else if (values.check) {
    process.stderr.write(
      `${file}: not rendered from the results file; run \`pnpm bench:render\`\n`,
    );
    failed = true;
  } else {
    writeFileSync(path, rendered[key]);
    process.stdout.write(`${file}: rendered\n`);
  }
}
const stale = staleness(results);
if (stale !== undefined) {
  process.stderr.write(`results: ${stale}\n`);
  if (values.fresh) failed = true;
}
process.exitCode = failed ? 1 : 0;
