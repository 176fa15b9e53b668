// Part 1: per-request overhead of every entry point of the clients against bare openapi-fetch and raw
// fetch doing the same work, against a fixed-response server in a child process.
import { createLogsClient, type paths as LogsPaths } from "@api-clients/logs-client";
import {
  createManagementClient,
  type CreateDatabaseRequest,
  type paths as ManagementPaths,
} from "@api-clients/management-client";
import { instrument } from "@api-clients/otel";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import createClient from "openapi-fetch";
import type { BenchConfig } from "../config.js";
import { atLeastInRounds, type Row } from "../report.js";
import { startFixedServer } from "../support/fixed-server.js";
import { interleave, median, roundRatios, spread, withTimeout } from "../support/stats.js";

/** The entry points measured, in table order. */
export const ENTRIES = [
  "logs.list()",
  "logs.raw.GET",
  "m.databases.list()",
  "m.databases.create()",
  "m.raw.POST",
] as const;

/** One entry point of the clients. */
export type Entry = (typeof ENTRIES)[number];

/** Target for every entry point: its rate relative to bare openapi-fetch. */
export const OVERHEAD_TARGET = 0.95;

/** One request that resolves with the parsed body. */
export type Call = () => Promise<unknown>;

/** The three ways to make one entry point's request: the client, bare openapi-fetch, raw fetch. */
export interface Variants {
  ours: Call;
  bare: Call;
  raw: Call;
}

const TOKEN = "bench-token";
const EMAIL = "bench@example.com";
const API_KEY = "bench-api-key";
/** The clients' default per-attempt limit; every baseline arms the same timer. */
const TIMEOUT_MS = 30_000;
/** A user agent as long as the clients' own, so that every variant sends the same headers. */
const USER_AGENT = "@api-clients/bench/0.0.0";
const BODY: CreateDatabaseRequest = {
  name: "bench",
  region: "global",
  primary_region: "us-east-1",
};

/**
 * Runs `send` with a per-attempt timeout signal, as the clients do on every attempt: an
 * `AbortController` and an unref'd timer, cleared once the body has been read.
 */
async function withAttemptTimeout<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  timer.unref();
  try {
    return await send(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** Raw fetch doing the same work as a client call: same URL, headers and body, timeout, JSON parse. */
function rawCall(target: string, init: RequestInit): Call {
  return () =>
    withAttemptTimeout(async (signal) => {
      const res = await fetch(target, { ...init, signal });
      if (!res.ok) throw new Error(`raw fetch ${target}: status ${res.status}`);
      return (await res.json()) as unknown;
    });
}

/** Checks an openapi-fetch result and returns its data. */
function dataOf(what: string, result: { data?: unknown; error?: unknown }): unknown {
  if (result.error !== undefined || result.data === undefined) throw new Error(`${what}: no data`);
  return result.data;
}

/** Every entry point's three variants, all against the fixed-response server at `url`. */
export function overheadCalls(url: string): Record<Entry, Variants> {
  const bearer = { authorization: `Bearer ${TOKEN}`, "user-agent": USER_AGENT };
  const basic = {
    authorization: `Basic ${btoa(`${EMAIL}:${API_KEY}`)}`,
    "user-agent": USER_AGENT,
  };
  const logs = createLogsClient({ token: TOKEN, baseUrl: url });
  const m = createManagementClient({ email: EMAIL, apiKey: API_KEY, baseUrl: url });
  // Bare openapi-fetch: the same global fetch, no middleware; the caller adds headers and the signal.
  const bareLogs = createClient<LogsPaths>({ baseUrl: url, fetch: globalThis.fetch });
  const bareM = createClient<ManagementPaths>({ baseUrl: url, fetch: globalThis.fetch });

  const logsGet: Variants = {
    ours: () => logs.list({ count: 1 }),
    bare: () =>
      withAttemptTimeout(async (signal) =>
        dataOf(
          "bare GET /v2/logs",
          await bareLogs.GET("/v2/logs", {
            params: { query: { count: 1 } },
            headers: bearer,
            signal,
          }),
        ),
      ),
    raw: rawCall(`${url}/v2/logs?count=1`, { headers: bearer }),
  };
  const listDatabases: Variants = {
    ours: () => m.databases.list(),
    bare: () =>
      withAttemptTimeout(async (signal) =>
        dataOf(
          "bare GET /v2/redis/databases",
          await bareM.GET("/v2/redis/databases", { headers: basic, signal }),
        ),
      ),
    raw: rawCall(`${url}/v2/redis/databases`, { headers: basic }),
  };
  const createDatabase: Variants = {
    ours: () => m.databases.create(BODY),
    bare: () =>
      withAttemptTimeout(async (signal) =>
        dataOf(
          "bare POST /v2/redis/database",
          await bareM.POST("/v2/redis/database", { body: BODY, headers: basic, signal }),
        ),
      ),
    raw: rawCall(`${url}/v2/redis/database`, {
      method: "POST",
      headers: { ...basic, "content-type": "application/json" },
      body: JSON.stringify(BODY),
    }),
  };
  return {
    "logs.list()": logsGet,
    "logs.raw.GET": {
      ...logsGet,
      ours: async () =>
        dataOf("logs.raw.GET", await logs.raw.GET("/v2/logs", { params: { query: { count: 1 } } })),
    },
    "m.databases.list()": listDatabases,
    "m.databases.create()": createDatabase,
    "m.raw.POST": {
      ...createDatabase,
      ours: async () =>
        dataOf("m.raw.POST", await m.raw.POST("/v2/redis/database", { body: BODY })),
    },
  };
}

/** Target of the tracing row: calls with `@api-clients/otel` subscribed, relative to unsubscribed. */
export const TRACING_TARGET = 0.85;

/**
 * `drive()` with `@api-clients/otel` subscribed around it (then unsubscribed): an SDK tracer provider
 * whose spans go to an exporter that drops them at once, and a meter provider (histograms recorded,
 * never read).
 */
export async function driveTraced(call: Call, count: number, concurrency: number): Promise<number> {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({
        export: (_spans, done) => done({ code: 0 }),
        shutdown: async () => undefined,
      }),
    ],
  });
  const stop = instrument({ tracerProvider, meterProvider: new MeterProvider() });
  try {
    return await drive(call, count, concurrency);
  } finally {
    stop();
  }
}

/** Makes `count` calls, `concurrency` at a time; returns requests per second. */
export async function drive(call: Call, count: number, concurrency: number): Promise<number> {
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

/**
 * The cost of tracing: `logs.list()` one at a time with `@api-clients/otel` subscribed (two spans,
 * two histogram records and a `traceparent` per call) against the same calls unsubscribed, in
 * interleaved rounds. The other rows of this part measure the unsubscribed path.
 */
export async function tracingRow(call: Call, config: BenchConfig): Promise<Row> {
  const { perRound, rounds, warmup } = config.overhead;
  await driveTraced(call, warmup, 1);
  // This process's CPU time per call (the server runs in a child process): steadier than req/s on a
  // busy machine, since time other processes take does not count.
  const cpu: Record<string, number[]> = { subscribed: [], unsubscribed: [] };
  const timed = (name: string, run: () => Promise<number>) => async () => {
    const before = process.cpuUsage();
    const rate = await run();
    const used = process.cpuUsage(before);
    cpu[name]!.push((used.user + used.system) / perRound);
    return rate;
  };
  const results = await withTimeout(
    interleave(
      {
        subscribed: timed("subscribed", () => driveTraced(call, perRound, 1)),
        unsubscribed: timed("unsubscribed", () => drive(call, perRound, 1)),
      },
      rounds,
    ),
    300_000,
    "overhead tracing",
  );
  const ratio = roundRatios(results["subscribed"]!, results["unsubscribed"]!);
  const cpuOf = (name: string) => `${Math.round(median(cpu[name]!))} µs`;
  return {
    part: 1,
    name: "tracing: logs.list() with @api-clients/otel subscribed vs unsubscribed",
    ours: median(results["subscribed"]!),
    peer: median(results["unsubscribed"]!),
    unit: "req/s",
    ratio: ratio.median,
    spread: ratio,
    target: `≥ ${TRACING_TARGET.toFixed(2)}×`,
    verdict: atLeastInRounds(ratio, TRACING_TARGET),
    note:
      `sequential; ${rounds} interleaved rounds × ${perRound} requests; an SDK tracer provider ` +
      `(spans dropped by the exporter) and meter provider; client CPU per call (median): subscribed ` +
      `${cpuOf("subscribed")}, unsubscribed ${cpuOf("unsubscribed")}; min–max req/s: subscribed ` +
      `${spread(results["subscribed"]!)}, unsubscribed ${spread(results["unsubscribed"]!)}`,
  };
}

/** Per-round rates as one rate over every round: total requests over total time (slow rounds weigh in). */
function overall(rates: readonly number[]): number {
  return rates.length / rates.reduce((time, rate) => time + 1 / rate, 0);
}

/**
 * The harness's noise floor in one mode: bare openapi-fetch against itself, in the same interleaved
 * rounds as the entry points. Identical code, so every distance from 1.00× is noise: an entry point's
 * ratio is only as exact as this row's interquartile range.
 */
async function noiseFloorRow(
  call: Call,
  label: string,
  config: BenchConfig,
  inFlight: number,
): Promise<Row> {
  const { perRound, rounds } = config.overhead;
  const results = await withTimeout(
    interleave(
      {
        again: () => drive(call, perRound, inFlight),
        bare: () => drive(call, perRound, inFlight),
      },
      rounds,
    ),
    300_000,
    `overhead ${label} noise floor`,
  );
  const ratio = roundRatios(results["again"]!, results["bare"]!);
  return {
    part: 1,
    name: `noise floor ${label}: bare openapi-fetch vs itself`,
    ours: median(results["again"]!),
    peer: median(results["bare"]!),
    unit: "req/s",
    ratio: ratio.median,
    spread: ratio,
    target: "1.00× (the same code)",
    verdict: "info",
    note:
      `logs GET, ${rounds} interleaved rounds × ${perRound} requests; the interquartile range is the ` +
      `harness's resolution in this mode`,
  };
}

/**
 * Runs part 1: for each mode (sequential, then `concurrency` in flight) the noise floor, then for
 * each entry point its three variants in interleaved rounds; one row per entry point and mode, judged
 * on the per-round ratio to bare openapi-fetch, with the ratio to raw fetch alongside.
 */
export async function runOverhead(config: BenchConfig): Promise<Row[]> {
  const { perRound, rounds, warmup, concurrency } = config.overhead;
  const server = await startFixedServer();
  try {
    const calls = overheadCalls(server.url);
    const rows: Row[] = [];
    for (const inFlight of [1, concurrency]) {
      const label = inFlight === 1 ? "sequential" : `${inFlight} in flight`;
      for (const entry of ENTRIES) {
        for (const call of Object.values(calls[entry])) await drive(call, warmup, inFlight);
      }
      rows.push(await noiseFloorRow(calls["logs.raw.GET"].bare, label, config, inFlight));
      for (const entry of ENTRIES) {
        const { ours, bare, raw } = calls[entry];
        const results = await withTimeout(
          interleave(
            {
              ours: () => drive(ours, perRound, inFlight),
              bare: () => drive(bare, perRound, inFlight),
              raw: () => drive(raw, perRound, inFlight),
            },
            rounds,
          ),
          300_000,
          `overhead ${label} ${entry}`,
        );
        const vsBare = roundRatios(results["ours"]!, results["bare"]!);
        const vsRaw = roundRatios(results["ours"]!, results["raw"]!);
        rows.push({
          part: 1,
          name: `overhead ${label}: ${entry} vs bare openapi-fetch`,
          ours: median(results["ours"]!),
          peer: median(results["bare"]!),
          unit: "req/s",
          ratio: vsBare.median,
          spread: vsBare,
          also: { label: "raw fetch", peer: median(results["raw"]!), spread: vsRaw },
          target: `≥ ${OVERHEAD_TARGET.toFixed(2)}×`,
          verdict: atLeastInRounds(vsBare, OVERHEAD_TARGET),
          note:
            `${rounds} interleaved rounds × ${perRound} requests; over all rounds (slow ones ` +
            `included): ${(overall(results["ours"]!) / overall(results["bare"]!)).toFixed(3)}× bare; ` +
            `min–max req/s: ours ${spread(results["ours"]!)}, ` +
            `bare ${spread(results["bare"]!)}, raw fetch ${spread(results["raw"]!)}`,
        });
      }
    }
    rows.push(await tracingRow(calls["logs.list()"].ours, config));
    return rows;
  } finally {
    await server.stop();
  }
}
