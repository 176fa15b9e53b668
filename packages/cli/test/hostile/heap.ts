// The memory tests' probe: the built CLI in a process whose heap heap-probe.cjs samples (after a full
// collection, every 100 ms) into a file, and the samples read back.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { BIN, cliEnv } from "../support/cli.js";

const PROBE = fileURLToPath(new URL("./heap-probe.cjs", import.meta.url));

/** Starts `api-clients args…` with a 512 MiB heap, sampled into `heapFile`. */
export function spawnProbed(
  args: readonly string[],
  env: Record<string, string>,
  heapFile: string,
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(
    process.execPath,
    ["--expose-gc", "--max-old-space-size=512", "--require", PROBE, BIN, ...args],
    { env: cliEnv({ ...env, HEAP_PROBE_FILE: heapFile }), stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** The heap samples written to `heapFile` so far (bytes). */
export function heapSamples(heapFile: string): number[] {
  const text = existsSync(heapFile) ? readFileSync(heapFile, "utf8") : "";
  return text.split("\n").filter(Boolean).map(Number);
}
