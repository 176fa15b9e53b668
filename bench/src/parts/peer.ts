// Part 3: the peer SDK (@upstash/qstash) beside ours: paging throughput from the same emulator, and what
// each does when the service answers 429, 503 or drops the connection.
import { createLogsClient } from "@api-clients/logs-client";
import { Client } from "@upstash/qstash";
import type { BenchConfig } from "../config.js";
import type { Row } from "../report.js";
import type { EmulatorChild } from "../support/emulator-child.js";
import { median, roundRatios, spread, withTimeout } from "../support/stats.js";

/** What one client did with one injected fault. */
export interface FaultOutcome {
  /** `recovered` or the name of what it threw. */
  outcome: string;
  /** HTTP attempts made for the one call. */
  attempts: number;
  /** Wall time of the call, milliseconds. */
  ms: number;
  /** Lines the client wrote to the console meanwhile. */
  consoleLines: number;
}

const SCENARIOS = [
  { name: "429 with Retry-After: 0.05", fault: { status: 429, retryAfter: 0.05 } },
  { name: "503", fault: { status: 503 } },
  { name: "connection reset", fault: { resetConnection: true } },
] as const;

function errorName(e: unknown): string {
  return e instanceof Error
    ? `${e.constructor.name}${"status" in e ? ` ${String(e.status)}` : ""}`
    : String(e);
}

/** Counts fetch calls, and console lines written meanwhile, around `call`. */
async function observe(
  call: (fetchImpl: typeof fetch) => Promise<unknown>,
  viaGlobal: boolean,
): Promise<FaultOutcome> {
  let attempts = 0;
  const realFetch = globalThis.fetch;
  const counting: typeof fetch = (input, init) => {
    attempts++;
    return realFetch(input, init);
  };
  let consoleLines = 0;
  const { warn, error } = console;
  console.warn = () => void consoleLines++;
  console.error = () => void consoleLines++;
  // The peer has no `fetch` option: it calls the global one, so count there for the call's duration.
  if (viaGlobal) globalThis.fetch = counting;
  const started = performance.now();
  let outcome = "recovered";
  try {
    await withTimeout(call(counting), 30_000, "fault scenario");
  } catch (e) {
    outcome = `throws ${errorName(e)}`;
  } finally {
    globalThis.fetch = realFetch;
    console.warn = warn;
    console.error = error;
  }
  return { outcome, attempts, ms: performance.now() - started, consoleLines };
}

/** Runs every fault scenario against ours (`logs.list`) and the peer (`Client.logs`). */
export async function faultOutcomes(
  emu: EmulatorChild,
  times: number,
): Promise<Array<{ scenario: string; ours: FaultOutcome; peer: FaultOutcome }>> {
  const token = emu.credentials.logsToken;
  const out = [];
  for (const s of SCENARIOS) {
    await emu.clearFaults();
    await emu.addFault({ method: "GET", path: "/v2/logs", times, ...s.fault });
    const ours = await observe(
      (f) => createLogsClient({ token, baseUrl: emu.url, fetch: f }).list({ count: 10 }),
      false,
    );
    await emu.clearFaults();
    await emu.addFault({ method: "GET", path: "/v2/events", times, ...s.fault });
    const peer = await observe(
      () => new Client({ token, baseUrl: emu.url }).logs({ count: 10 }),
      true,
    );
    await emu.clearFaults();
    out.push({ scenario: s.name, ours, peer });
  }
  return out;
}

const describe = (o: FaultOutcome) =>
  `${o.outcome}, ${o.attempts} attempt${o.attempts === 1 ? "" : "s"}`;

/** Runs part 3 from the shared paging rounds (which include the peer loop) plus the fault scenarios. */
export async function runPeer(
  config: BenchConfig,
  emu: EmulatorChild,
  noConsumer: Record<string, number[]>,
): Promise<Row[]> {
  const ours = median(noConsumer["ours"]!);
  const peer = median(noConsumer["peer"]!);
  const vsPeer = roundRatios(noConsumer["ours"]!, noConsumer["peer"]!);
  const rows: Row[] = [
    {
      part: 3,
      name: "peer paging: logs.iterate() vs qstash Client.logs() loop",
      ours,
      peer,
      unit: "entries/s",
      ratio: vsPeer.median,
      spread: vsPeer,
      target: "—",
      verdict: "info",
      note: `same emulator and data, pages of 1000, in the rotation of part 2; peer ${spread(noConsumer["peer"]!)}`,
    },
  ];
  const times = config.peer.faultTimes;
  for (const r of await faultOutcomes(emu, times)) {
    rows.push({
      part: 3,
      name: `peer under ${times}× ${r.scenario}, then OK`,
      ours: describe(r.ours),
      peer: describe(r.peer),
      unit: "",
      ratio: null,
      target: "ours recovers",
      verdict: r.ours.outcome === "recovered" ? "pass" : "FAIL",
      note: `ours ${r.ours.ms.toFixed(0)} ms; peer ${r.peer.ms.toFixed(0)} ms, ${r.peer.consoleLines} console line(s)`,
    });
  }
  return rows;
}
