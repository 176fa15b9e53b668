// `logs tail` keeps its memory and its request rate bounded against hostile servers, measured in the
// CLI's own process (`--expose-gc`, the heap after a full collection every 100 ms, heap-probe.cjs),
// and keeps showing the entries that arrive meanwhile (issue 24: 6, 9, 16; round 2):
// - pages that never end, each with a new cursor and a new entry of 1 MiB (its message id): before
//   each poll was bounded by bytes, it grew by 1 MiB a page, printing nothing, until the heap ran out;
// - the same 2 MiB cursor on every page: before tail turned off Node's resource timing buffer, each
//   request's URL (the cursor) stayed in it, up to 250 of them;
// - entries dated a year ahead (never out of the time window), two new 1 MiB ones a poll: before the
//   remembered keys were bounded by bytes (a long key kept as its hash), every one of them was kept;
// - pages that never end, read through a pipe whose reader stops for 2 s: before tail waited for a
//   full pipe to drain, it kept polling and buffered everything it printed.
// Each runs for 3 s at least, and until tail has printed what shows the difference.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { heapSamples, spawnProbed } from "./heap.js";
import { entry, startHostile, type Answer, type HostileServer } from "./server.js";

const MiB = 1024 * 1024;
/** How long each server is tailed once the first live entry shows, at least. */
const RUN_MS = 3_000;
/** Seconds between polls: short, so that many polls happen within the run. */
const INTERVAL = 0.1;
/** A poll holds at most 8 MiB of new entries (MAX_BYTES_PER_POLL): room for three times that. */
const MAX_GROWTH = 24 * MiB;
/**
 * Endless 1 MiB pages: the 8 MiB a poll holds, plus the page being read in several copies at once
 * (bytes, text, parsed, printed line), sampled by timing; measured 19.5–22.5 MiB. Without the poll's
 * byte bound, tail runs out of heap before the first live entry.
 */
const MAX_GROWTH_ENDLESS = 40 * MiB;

const dir = mkdtempSync(join(tmpdir(), "tail-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: HostileServer | undefined;
let running: ReturnType<typeof spawnProbed> | undefined;
afterEach(async () => {
  if (running !== undefined && running.exitCode === null && running.signalCode === null) {
    const closed = new Promise((resolve) => running!.once("close", resolve));
    running.kill("SIGKILL");
    await closed;
  }
  await server?.close();
});

/** A new entry of 1 MiB: its message id (what tail remembers it by) is that long. */
const big = (id: string, time = Date.now() - 500) => entry(`${id}_${"i".repeat(MiB)}`, time);

/** Live entries (short ids) the test adds while tail runs; served newest first on the top page. */
let live: ReturnType<typeof entry>[] = [];
const top = () => live.slice(-3).reverse();

let fillers = 0;
const BIG_CURSOR = `c${"u".repeat(2 * MiB)}`;
const FUTURE = 365 * 86_400_000;

/** Pages that never end, each with a new cursor and a new 1 MiB entry. */
const endless: Answer = (query, n) => ({
  body: {
    events: [...(query.has("cursor") ? [] : top()), big(`fill${fillers++}`)],
    cursor: `page-${n}`,
  },
});

/** How a run goes: pages a poll may read; at least what tail prints (MiB) and the requests it makes; a reader's stall; the heap growth allowed. */
interface Run {
  pagesPerPoll: number;
  printMiB: number;
  requests?: number;
  stallMs?: number;
  maxGrowth?: number;
}

/** Each server, as the answer to a request, and its run. */
const SERVERS: Array<[string, Answer, Run]> = [
  // 8 MiB a poll: the top page and at most 8 more.
  [
    "pages that never end, each with a 1 MiB entry",
    endless,
    { pagesPerPoll: 9, printMiB: 8, maxGrowth: MAX_GROWTH_ENDLESS },
  ],
  [
    "the same 2 MiB cursor on every page",
    (query) => ({
      body: {
        events: [...(query.has("cursor") ? [] : top()), entry(`fill${fillers++}`)],
        cursor: BIG_CURSOR,
      },
    }),
    // The top page, then the cursor once: it comes back, and the poll ends. 24 URLs of 2 MiB.
    { pagesPerPoll: 2, printMiB: 0, requests: 24 },
  ],
  [
    "entries dated a year ahead, two new a poll",
    () => ({
      body: {
        events: [
          ...Array.from({ length: 2 }, () => big(`future${fillers++}`, Date.now() + FUTURE)),
          ...top(),
        ],
      },
    }),
    // What tail printed, it kept before: more than the growth allowed.
    { pagesPerPoll: 1, printMiB: 32 },
  ],
  [
    "pages that never end, and a reader that stops reading for 2 s",
    endless,
    { pagesPerPoll: 9, printMiB: 0, stallMs: 2_000, maxGrowth: MAX_GROWTH_ENDLESS },
  ],
];

interface ProbedTail {
  /** Live entry ids shown so far (`live_N`). */
  readonly shown: string[];
  /** Characters printed so far. */
  readonly printed: number;
  /** Resolves once `id` is shown; rejects after `timeoutMs` or if tail exits. */
  waitFor(id: string, timeoutMs?: number): Promise<void>;
  /** Stops reading tail's output for `ms` (the pipe fills up). */
  stall(ms: number): void;
  /** The heap samples so far (bytes). */
  samples(): number[];
  /** Stops tail (SIGINT) and resolves to its exit code and stderr. */
  stop(): Promise<{ code: number | null; stderr: string }>;
}

/** Starts `api-clients logs tail --json` in a process whose heap heap-probe.cjs samples. */
function startProbedTail(url: string, name: string): ProbedTail {
  const heapFile = join(dir, `${name.replace(/\W+/g, "-")}.heap`);
  const child = spawnProbed(
    ["logs", "tail", "--base-url", url, "--json", "--lines", "0", "--interval", String(INTERVAL)],
    { QSTASH_TOKEN: "tail-token" },
    heapFile,
  );
  running = child;
  const shown: string[] = [];
  let partial = "";
  let printed = 0;
  let stderr = "";
  let exited = false;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  // Lines are a megabyte long: only the live ids are kept.
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    printed += chunk.length;
    const lines = (partial + chunk).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      const id = /"messageId":"(live_\d+)"/.exec(line.slice(0, 200))?.[1];
      if (id !== undefined) shown.push(id);
    }
    notify();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      exited = true;
      notify();
      resolve(code);
    }),
  );
  return {
    shown,
    get printed() {
      return printed;
    },
    waitFor: (id, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`${id} not shown in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const finish = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error)
            reject(
              new Error(
                `${error.message}; shown ${shown.join(",")}; stderr ${stderr.slice(-1000)}`,
              ),
            );
          else resolve();
        };
        const check = () => {
          if (shown.includes(id)) finish();
          else if (exited) finish(new Error(`tail exited before ${id} was shown`));
        };
        listeners.add(check);
        check();
      }),
    stall(ms) {
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), ms);
    },
    samples: () => heapSamples(heapFile),
    async stop() {
      child.kill("SIGINT");
      return { code: await closed, stderr };
    },
  };
}

describe("logs tail against hostile servers: memory and request rate", () => {
  it.each(SERVERS)(
    "%s: heap and request rate stay bounded, new entries keep showing",
    async (name, answer, run) => {
      const { pagesPerPoll, printMiB, requests: minRequests = 0, stallMs } = run;
      live = [];
      let polls = 0;
      let started: () => void;
      const secondPoll = new Promise<void>((resolve) => (started = resolve));
      server = await startHostile((query, n) => {
        if (!query.has("cursor") && ++polls === 2) started();
        return answer(query, n);
      });
      const tail = startProbedTail(server.url, name);
      // The first poll is over (what it read is not shown: `--lines 0`); then the live entries begin.
      await secondPoll;
      live.push(entry("live_0"));
      await tail.waitFor("live_0");
      // The baseline: tail has run a few polls, read pages and shown an entry.
      const before = tail.samples();
      expect(before.length).toBeGreaterThan(0);
      const baseline = Math.min(...before.slice(-3));
      const start = Date.now();
      const [requests0, polls0, printed0] = [server.requests, polls, tail.printed];
      if (stallMs !== undefined) tail.stall(stallMs);
      let next = 1;
      while (
        Date.now() - start < RUN_MS ||
        tail.printed - printed0 < printMiB * MiB ||
        server.requests - requests0 < minRequests
      ) {
        const id = `live_${next++}`;
        live.push(entry(id));
        await tail.waitFor(id);
      }
      const seconds = (Date.now() - start) / 1000;
      const [requests, pollCount] = [server.requests - requests0, polls - polls0];
      const samples = tail.samples().slice(before.length);
      const { code, stderr } = await tail.stop();

      expect(code).toBe(130);
      // Every live entry shown, once, in order.
      expect(tail.shown).toEqual(Array.from({ length: next }, (_, i) => `live_${i}`));
      // At most one poll per interval (polls are slower than that: each reads and prints megabytes).
      expect(pollCount / seconds).toBeLessThanOrEqual(1 / INTERVAL + 1);
      expect(requests).toBeLessThanOrEqual((pollCount + 1) * pagesPerPoll);
      // Memory: from the baseline to the largest sample after it.
      expect(samples.length).toBeGreaterThan(10);
      const growth = Math.max(...samples) - baseline;
      console.log(
        `${name}: ${next} live entries and ${((tail.printed - printed0) / MiB).toFixed(0)} MiB shown ` +
          `in ${seconds.toFixed(1)} s; ${pollCount} polls, ` +
          `${(requests / seconds).toFixed(1)} requests/s; heap ${(baseline / MiB).toFixed(1)} MiB, ` +
          `grew at most ${(growth / MiB).toFixed(1)} MiB over ${samples.length} samples`,
      );
      expect(growth).toBeLessThan(run.maxGrowth ?? MAX_GROWTH);
      expect(stderr).not.toMatch(/heap out of memory/i);
    },
    120_000,
  );
});
