// Part 5: requests/s the emulator serves under a real load generator (autocannon), beside a static mock
// of the same spec (`prism mock`, @stoplight/prism-cli 5.14) as the peer.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { BenchConfig } from "../config.js";
import { atLeastInRounds, type Row } from "../report.js";
import type { EmulatorChild } from "../support/emulator-child.js";
import { median, roundRatios, withTimeout } from "../support/stats.js";
import { startPrism } from "../../../packages/management-client/test/contract/prism.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** One measured target: a path and its headers, and the ratio to the mock it must reach. */
interface Target {
  label: string;
  spec: string;
  path: string;
  headers: (emu: EmulatorChild) => Record<string, string>;
  /** Minimum ratio of the emulator's requests/s to prism's, when the issue sets one. */
  min?: number;
}

const TARGETS: readonly Target[] = [
  {
    label: "GET /v2/logs?count=100",
    spec: "specs/logs.openapi.yaml",
    path: "/v2/logs?count=100",
    headers: (emu) => ({ authorization: `Bearer ${emu.credentials.logsToken}` }),
    min: 5,
  },
  {
    label: "GET /v2/redis/databases",
    spec: "specs/management.openapi.yaml",
    path: "/v2/redis/databases",
    headers: (emu) => ({
      authorization: `Basic ${Buffer.from(`${emu.credentials.email}:${emu.credentials.apiKey}`).toString("base64")}`,
    }),
  },
];

/** Result of one autocannon run. */
export interface LoadResult {
  rps: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon for `durationS` seconds against `url`; returns mean requests/s of 2xx answers. */
export async function load(
  url: string,
  headers: Record<string, string>,
  durationS: number,
  connections: number,
): Promise<LoadResult> {
  const result = await withTimeout(
    autocannon({ url, headers, duration: durationS, connections, pipelining: 1 }),
    (durationS + 30) * 1_000,
    `autocannon ${url}`,
  );
  const ok = result.requests.total - result.non2xx;
  return {
    rps: ok / (result.duration || durationS),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A running prism mock, or why there is none. */
type Prism = { url: string; stop: () => Promise<void> } | { unavailable: string };

/** Starts `prism mock <spec>` on a free port on 127.0.0.1 and waits (≤ 60 s) until it answers. */
async function startPeer(spec: string, probePath: string): Promise<Prism> {
  try {
    return await startPrism(join(ROOT, spec), probePath, 60_000, []);
  } catch (error) {
    return { unavailable: (error as Error).message.slice(0, 300) };
  }
}

/** Runs part 5 against the running emulator child. */
export async function runThroughput(config: BenchConfig, emu: EmulatorChild): Promise<Row[]> {
  const { durationS, rounds, connections } = config.throughput;
  const rows: Row[] = [];
  for (const target of TARGETS) {
    const headers = target.headers(emu);
    const prism: Prism = config.prism
      ? await startPeer(target.spec, target.path)
      : { unavailable: "not run in this mode" };
    try {
      const ours: LoadResult[] = [];
      const peer: LoadResult[] = [];
      const emuUrl = `${emu.url}${target.path}`;
      // A short warm-up each, then interleaved rounds, the first of the pair alternating.
      const warmupS = Math.min(1, durationS);
      await load(emuUrl, headers, warmupS, connections);
      if ("url" in prism) await load(`${prism.url}${target.path}`, headers, warmupS, connections);
      for (let round = 0; round < rounds; round++) {
        const runOurs = async () => ours.push(await load(emuUrl, headers, durationS, connections));
        const runPeer = async () => {
          if ("url" in prism) {
            peer.push(await load(`${prism.url}${target.path}`, headers, durationS, connections));
          }
        };
        if (round % 2 === 0) {
          await runOurs();
          await runPeer();
        } else {
          await runPeer();
          await runOurs();
        }
      }
      const oursRps = median(ours.map((r) => r.rps));
      const bad = (rs: LoadResult[]) => rs.reduce((n, r) => n + r.non2xx + r.errors, 0);
      const common = {
        part: 5,
        name: `emulator throughput: ${target.label} vs prism mock`,
        ours: oursRps,
        unit: "req/s",
        target: target.min === undefined ? "—" : `≥ ${target.min.toFixed(2)}×`,
      };
      if ("unavailable" in prism) {
        rows.push({
          ...common,
          peer: "peer unavailable",
          ratio: null,
          verdict: "n/a",
          note: `${prism.unavailable}; non-2xx/errors: ours ${bad(ours)}`,
        });
        continue;
      }
      const s = roundRatios(
        ours.map((r) => r.rps),
        peer.map((r) => r.rps),
      );
      rows.push({
        ...common,
        peer: median(peer.map((r) => r.rps)),
        ratio: s.median,
        spread: s,
        verdict: target.min === undefined ? "info" : atLeastInRounds(s, target.min),
        note:
          `autocannon, ${connections} connections, ${rounds} interleaved rounds × ${durationS} s each; ` +
          `non-2xx/errors: ours ${bad(ours)}, peer ${bad(peer)}`,
      });
    } finally {
      if ("stop" in prism) await prism.stop();
    }
  }
  return rows;
}
