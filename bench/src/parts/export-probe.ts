// Child process of the export rows: exports every entry of the emulator to an NDJSON file, either
// with `api-clients logs export` (the CLI's `run()`, in this process) or with a raw fetch + cursor loop
// writing the same lines, and reports time and the peak growth of heap and RSS over a baseline taken
// after gc(), sampled every `sampleMs` and at the end. Usage: export-probe.ts '<json job>'. Prints one
// JSON line.
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { trackMemoryPeak, type MemoryGrowth } from "../support/memory-peak.js";

/** What to run. */
export interface ExportJob {
  kind: "cli" | "raw";
  /** The CLI package folder (with `dist/index.js`), for `kind: "cli"`. */
  cliDir?: string;
  url: string;
  token: string;
  /** Entries per page of the raw loop (the API's maximum, as an export would use). */
  pageSize: number;
  out: string;
  sampleMs: number;
}

/** What the probe reports. */
export interface ExportProbe extends MemoryGrowth {
  lines: number;
  ms: number;
}

/** The raw loop: fetch + cursor, each page written as one chunk of `JSON.stringify(entry)` lines. */
async function rawExport(job: ExportJob): Promise<void> {
  const file = createWriteStream(job.out);
  const headers = { authorization: `Bearer ${job.token}` };
  const first = `${job.url}/v2/logs?count=${job.pageSize}`;
  let cursor: string | undefined;
  for (let pages = 0; pages < 100_000; pages++) {
    const res = await fetch(
      cursor === undefined ? first : `${first}&cursor=${encodeURIComponent(cursor)}`,
      { headers },
    );
    if (!res.ok) throw new Error(`raw export: status ${res.status}`);
    const page = (await res.json()) as { events: unknown[]; cursor?: string };
    let chunk = "";
    for (const entry of page.events) chunk += `${JSON.stringify(entry)}\n`;
    if (!file.write(chunk)) await once(file, "drain");
    cursor = page.cursor;
    if (cursor === undefined || cursor === "") break;
  }
  file.end();
  await once(file, "close");
}

type Run = (args: readonly string[], options: object) => Promise<number>;

/** `api-clients logs export --format ndjson --out <file>` through the CLI's exported `run()`. */
async function cliExport(job: ExportJob, run: Run): Promise<void> {
  let stderr = "";
  const sink = () => new Writable({ write: (_c, _e, done) => done() });
  const errors = new Writable({
    write: (chunk: Buffer, _e, done) => {
      if (stderr.length < 4_000) stderr += chunk.toString();
      done();
    },
  });
  const code = await run(
    [
      ...["--token", job.token, "--base-url", job.url],
      ...["logs", "export", "--format", "ndjson", "--out", job.out, "--no-progress"],
    ],
    { stdout: sink(), stderr: errors, env: {} },
  );
  if (code !== 0) throw new Error(`api-clients logs export exited ${code}: ${stderr}`);
}

async function countLines(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return lines;
}

const job = JSON.parse(process.argv[2] ?? "{}") as ExportJob;
// The CLI's code is loaded before the baseline, as the raw loop's is.
const cli =
  job.kind === "cli"
    ? ((await import(pathToFileURL(join(job.cliDir!, "dist/index.js")).href)) as { run: Run })
    : undefined;
const memory = trackMemoryPeak(job.sampleMs);
const started = performance.now();
await (cli === undefined ? rawExport(job) : cliExport(job, cli.run));
const ms = performance.now() - started;
const { heapGrowthMiB, rssGrowthMiB } = memory.stop();
const result: ExportProbe = { lines: await countLines(job.out), ms, heapGrowthMiB, rssGrowthMiB };
process.stdout.write(`${JSON.stringify(result)}\n`);
