// Part 1: per-request overhead of raw fetch, bare openapi-fetch and `logs.list()` against a fixed page.
import { createLogsClient, type paths } from "@api-clients/logs-client";
import createClient from "openapi-fetch";
import type { BenchConfig } from "../config.js";
import { atLeast, ratioOf, type Row } from "../report.js";
import { spawnReady, srcFile, tsNodeArgs } from "../support/child.js";
import { interleave, median, spread, withTimeout } from "../support/stats.js";

const TOKEN = "bench-token";
type Call = () => Promise<unknown>;

/** The ways to make the same `GET /v2/logs?count=1` call, each reading the parsed body. */
export function overheadCalls(url: string): Record<string, Call> {
  const authorization = `Bearer ${TOKEN}`;
  const target = `${url}/v2/logs?count=1`;
  const bare = createClient<paths>({ baseUrl: url });
  const logs = createLogsClient({ token: TOKEN, baseUrl: url });
  return {
    "raw fetch": async () => {
      const res = await fetch(target, { headers: { authorization } });
      if (!res.ok) throw new Error(`raw fetch: status ${res.status}`);
      return (await res.json()) as unknown;
    },
    // What any client that enforces a per-request timeout pays in Node's fetch: an AbortSignal.
    "raw fetch + timeout signal": async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      try {
        const res = await fetch(target, { headers: { authorization }, signal: controller.signal });
        if (!res.ok) throw new Error(`raw fetch: status ${res.status}`);
        return (await res.json()) as unknown;
      } finally {
        clearTimeout(timer);
      }
    },
    "openapi-fetch": async () => {
      const { data, error } = await bare.GET("/v2/logs", {
        params: { query: { count: 1 } },
        headers: { authorization },
      });
      if (error !== undefined || data === undefined) throw new Error("openapi-fetch: no data");
      return data;
    },
    "logs.list()": () => logs.list({ count: 1 }),
  };
}

/** Makes `count` calls, `concurrency` at a time; returns requests per second. */
async function drive(call: Call, count: number, concurrency: number): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return count / ((performance.now() - started) / 1_000);
}

/** Runs part 1 and returns its rows (sequential and concurrent, each variant against raw fetch). */
export async function runOverhead(config: BenchConfig): Promise<Row[]> {
  const { requests, rounds, warmup, concurrency } = config.overhead;
  const server = await spawnReady<{ url: string }>(
    process.execPath,
    tsNodeArgs(srcFile("servers/fixed-page-server.ts")),
    { timeoutMs: 30_000 },
  );
  try {
    const calls = overheadCalls(server.info.url);
    const perRound = Math.max(1, Math.floor(requests / rounds));
    const rows: Row[] = [];
    for (const inFlight of [1, concurrency]) {
      const label = inFlight === 1 ? "sequential" : `${inFlight} in flight`;
      for (const call of Object.values(calls)) await drive(call, warmup, inFlight);
      const variants = Object.fromEntries(
        Object.entries(calls).map(([name, call]) => [name, () => drive(call, perRound, inFlight)]),
      );
      const results = await withTimeout(interleave(variants, rounds), 300_000, `overhead ${label}`);
      const comparisons: [name: string, baseline: string, target: boolean][] = [
        ["raw fetch + timeout signal", "raw fetch", false],
        ["openapi-fetch", "raw fetch", false],
        ["logs.list()", "raw fetch", true],
        ["logs.list()", "raw fetch + timeout signal", false],
      ];
      for (const [name, baseline, target] of comparisons) {
        const ours = median(results[name]!);
        const peer = median(results[baseline]!);
        const ratio = ratioOf(ours, peer);
        rows.push({
          part: 1,
          name: `overhead ${label}: ${name} vs ${baseline}`,
          ours,
          peer,
          unit: "req/s",
          ratio,
          target: target ? "≥ 0.90×" : "—",
          verdict: target ? atLeast(ratio, 0.9) : "info",
          note:
            `${rounds} interleaved rounds × ${perRound} requests (median of rounds); ` +
            `${name} ${spread(results[name]!)} req/s, ${baseline} ${spread(results[baseline]!)} req/s`,
        });
      }
    }
    return rows;
  } finally {
    await server.stop();
  }
}
