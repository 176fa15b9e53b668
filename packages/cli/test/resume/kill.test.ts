// Exports that never duplicate (issue 32, item 6): a chain of resumed exports into one file, each
// killed at a random point (a random time after it starts, or once the file grew by a random number
// of bytes: before its first request, between pages, in the middle of writing one) with SIGINT,
// SIGTERM, SIGHUP or SIGKILL in turn, 20 times. After a signal that lets it print a resume line, the
// next run is that line; after `kill -9` (or a signal before the handlers are in place) it is the
// line printed before, run again. Finished with the last line, the file holds exactly what one clean
// export of the window writes: 0 entries missing, 0 duplicated.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli } from "../support/cli.js";
import { target } from "../support/emulator.js";

const DAY = 86_400_000;
let emu: Emulator;
let cli: ReturnType<typeof target>;
let dir: string;
const end = Date.now();
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 6_000, seed: 32, logsEndTime: end });
  cli = target(emu);
  dir = mkdtempSync(join(tmpdir(), "api-clients-kill-"));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The words of a command printed for a POSIX shell (plain words and single-quoted ones). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replaceAll(`'\\''`, "'") : (m[2] as string));
  return words;
}

/** A deterministic generator of numbers in [0, 1) (the same kill points every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const size = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};
const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGKILL"] as const;
const CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGKILL: undefined };

describe("a resumed export killed at any point, re-run with the printed command", () => {
  it("20 kills (SIGINT, SIGTERM, SIGHUP, kill -9 in turn), then the rest: the file equals a clean export", async () => {
    const window = ["--from", String(end - 30 * DAY), "--to", String(end), "--page-size", "20"];
    const out = join(dir, "chain.ndjson");
    const next = random(32);
    // Pages take a little time, so that a kill lands while the export runs.
    emu.faults.add({ path: "/v2/logs", delayMs: 10, times: "always" });
    let command = ["logs", "export", ...cli.base, ...window, "--out", out, "--no-progress"];
    const printed = new Set<string>();
    for (let trial = 0; trial < 20; trial++) {
      const signal = SIGNALS[trial % SIGNALS.length]!;
      const before = size(out);
      const running = startCli(command, cli.env);
      if (next() < 0.3) await sleep(Math.floor(next() * 600));
      else {
        const grow = Math.floor(next() * 8_000);
        while (size(out) <= before + grow && running.child.exitCode === null) await sleep(5);
      }
      running.child.kill(signal);
      const result = await running.done;
      expect(result.code, `trial ${trial} finished before its kill: ${result.stderr}`).not.toBe(0);
      const line = /^Resume with: api-clients (logs export .*)$/m.exec(result.stderr)?.[1];
      if (line !== undefined) {
        expect(result.code, result.stderr).toBe(CODES[signal]);
        printed.add(signal);
        command = shellWords(line);
        expect(command).toContain("--at-byte");
      }
      // Otherwise (kill -9, or a signal before the handlers were in place) the line printed before.
    }
    // Every signal but SIGKILL printed its resume line at least once.
    expect([...printed].sort()).toEqual(["SIGHUP", "SIGINT", "SIGTERM"]);

    emu.faults.clear();
    const last = await runCli(command, cli.env);
    expect(last.code, last.stderr).toBe(0);

    const once = join(dir, "once.ndjson");
    const clean = await runCli(
      ["logs", "export", ...cli.base, ...window, "--out", once, "--no-progress"],
      cli.env,
    );
    expect(clean.code, clean.stderr).toBe(0);
    const want = lines(once);
    expect(new Set(want).size).toBe(want.length);
    expect(want.length).toBe(6_000);
    const got = lines(out);
    const seen = new Map<string, number>();
    for (const entry of got) seen.set(entry, (seen.get(entry) ?? 0) + 1);
    const duplicated = [...seen.values()].filter((n) => n > 1).length;
    const missing = want.filter((entry) => !seen.has(entry)).length;
    expect({ missing, duplicated, extra: got.length - want.length }).toEqual({
      missing: 0,
      duplicated: 0,
      extra: 0,
    });
    expect([...got].sort()).toEqual([...want].sort());
  }, 180_000);
});
