// Exact resumes (issue 23, item 3): an export with a relative `--from 1h`, interrupted after its first
// page, prints a command with the window in Unix milliseconds (`--from <ms> --to <ms> --cursor …`);
// run a few seconds later while the emulator keeps appending, it completes the file, which then holds
// byte for byte (sorted) what one export of that absolute window writes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli, startCli, waitForFile } from "../support/cli.js";
import { target } from "../support/emulator.js";

const HOUR = 3_600_000;
let emu: Emulator;
let cli: ReturnType<typeof target>;
let dir: string;
beforeAll(async () => {
  // About one entry a second over the last 5.5 hours: some 3,600 in the last hour.
  emu = await startEmulator({ port: 0, seedLogs: 20_000, seed: 17, logsEndTime: Date.now() });
  cli = target(emu);
  dir = mkdtempSync(join(tmpdir(), "api-clients-resume-"));
});
beforeEach(() => emu.reset());
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

const sortedLines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean).sort();

describe("an interrupted export resumes over exactly the same window", () => {
  for (const order of [undefined, "earliestFirst"] as const) {
    it(`--from 1h${order ? ` --order ${order}` : ""}: interrupted after the first page, resumed later while entries arrive, equals one export of the window`, async () => {
      const orderArgs = order ? ["--order", order] : [];
      const out = join(dir, `resumed-${order ?? "default"}.ndjson`);
      // Slow pages, so that the interrupt lands after the first one.
      emu.faults.add({ path: "/v2/logs", delayMs: 150, times: "always" });
      // New entries keep arriving (now-dated) from before the start to after the one-shot export.
      const appender = setInterval(() => {
        emu.logs.append([
          { state: "CREATED", url: "https://new.example/a" },
          { state: "DELIVERED", url: "https://new.example/b" },
        ]);
      }, 20);
      try {
        const started = Date.now();
        const running = startCli(
          [
            "logs",
            "export",
            ...cli.base,
            "--from",
            "1h",
            "--page-size",
            "100",
            "--out",
            out,
            ...orderArgs,
          ],
          cli.env,
        );
        await waitForFile(out, 0);
        running.child.kill("SIGINT");
        const interrupted = await running.done;
        expect(interrupted.code, interrupted.stderr).toBe(130);
        const written = readFileSync(out, "utf8").split("\n").filter(Boolean).length;
        expect(written).toBeGreaterThanOrEqual(100);

        const line = /^Resume with: (api-clients logs export .*)$/m.exec(interrupted.stderr)?.[1];
        expect(line, interrupted.stderr).toBeDefined();
        const words = shellWords(line!);
        const flag = (name: string) => words[words.indexOf(name) + 1] as string;
        // The window as Unix ms: --from resolved once (an hour before the start), --to the start.
        const from = Number(flag("--from"));
        const to = Number(flag("--to"));
        expect(Math.abs(from - (started - HOUR))).toBeLessThan(30_000);
        expect(to - from).toBe(HOUR);
        expect(flag("--cursor")).toMatch(/^\d+-\d+$/);
        expect(words).toContain("--append");
        expect(words).not.toContain("1h");
        expect(line).not.toContain(emu.credentials.logsToken);

        // A few seconds later, while entries keep arriving, with the printed command as it is.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        emu.faults.clear();
        const resumed = await runCli(words.slice(1), cli.env);
        expect(resumed.code, resumed.stderr).toBe(0);

        const once = join(dir, `once-${order ?? "default"}.ndjson`);
        const oneShot = await runCli(
          [
            "logs",
            "export",
            ...cli.base,
            "--from",
            String(from),
            "--to",
            String(to),
            "--out",
            once,
            ...orderArgs,
          ],
          cli.env,
        );
        expect(oneShot.code, oneShot.stderr).toBe(0);
        const want = sortedLines(once);
        expect(want.length).toBeGreaterThan(written);
        expect(sortedLines(out)).toEqual(want);
        // Entries kept arriving after the window's end: none of them is in the file.
        const times = want.map((l) => (JSON.parse(l) as { time: number }).time);
        expect(Math.min(...times)).toBeGreaterThanOrEqual(from);
        expect(Math.max(...times)).toBeLessThanOrEqual(to);
        const later = await fetch(
          `${emu.url}/v2/logs?fromDate=${to + 1}&url=https://new.example/a`,
          {
            headers: { authorization: `Bearer ${emu.credentials.logsToken}` },
          },
        ).then((r) => r.json() as Promise<{ events: unknown[] }>);
        expect(later.events.length).toBeGreaterThan(10);
      } finally {
        clearInterval(appender);
      }
    }, 120_000);
  }

  it("logs list --from 1h: the next-page hint gives the window this page used, in Unix ms", async () => {
    const started = Date.now();
    const result = await runCli(
      ["logs", "list", ...cli.base, "--since", "1h", "--page-size", "10"],
      cli.env,
    );
    expect(result.code, result.stderr).toBe(0);
    const hint = /More entries: add --cursor (\S+) and --from (\d+) \(/.exec(result.stderr);
    expect(hint, result.stderr).not.toBeNull();
    expect(Math.abs(Number(hint![2]) - (started - HOUR))).toBeLessThan(30_000);
    // The hint's flags show the next page of the same window.
    const next = await runCli(
      ["logs", "list", ...cli.base, "--from", hint![2]!, "--cursor", hint![1]!, "--json"],
      cli.env,
    );
    expect(next.code, next.stderr).toBe(0);
    const times = (JSON.parse(next.stdout) as { events: { time: number }[] }).events.map(
      (e) => e.time,
    );
    expect(times.length).toBeGreaterThan(0);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(Number(hint![2]));
  });
});
