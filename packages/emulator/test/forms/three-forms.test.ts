// One model, three forms: the same generated requests, in the same order, against three fresh
// emulators made with the same options (seed, id seed, a clock that steps the same way): one over
// HTTP, one through `emulator.fetch`, one through MSW handlers. Every answer must match: status,
// body and the rate-limit headers.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createEmulator,
  startEmulator,
  type EmulatorOptions,
  type InProcessEmulator,
  type Emulator,
} from "../../src/index.js";
import { createHandlers } from "../../src/msw.js";
import { ALICE, BOB, LOGS_TOKEN } from "../helpers.js";
import { generateRequests, harvest, newHarvest } from "./request-generator.js";

const REQUESTS = 10_000;
const MSW_BASE = "http://msw.emulator.test";
/** Headers compared besides status and body. */
const COMPARED_HEADERS = [
  "burst-ratelimit-limit",
  "burst-ratelimit-remaining",
  "burst-ratelimit-reset",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "retry-after",
  "allow",
  "content-type",
];

/** The same options for each emulator, with a clock of its own that steps 37 ms per reading. */
const options = (): EmulatorOptions => {
  let t = Date.UTC(2026, 10, 27, 12, 0, 0);
  return {
    seed: 11,
    idSeed: 42,
    seedLogs: 300,
    logsEndTime: Date.UTC(2026, 10, 27, 11, 0, 0),
    clock: () => (t += 37),
    logsToken: LOGS_TOKEN,
    accounts: [ALICE, BOB],
    burstLimit: 3,
    dailyQuota: 200,
  };
};

let overHttp: Emulator;
/** The operation the last request over HTTP was routed to. */
let lastOperation: string | undefined;
let inProcess: InProcessEmulator;
let behindMsw: InProcessEmulator;
const msw = setupServer();

beforeAll(async () => {
  overHttp = await startEmulator({
    ...options(),
    onRequest: (r) => (lastOperation = r.operationId),
  });
  inProcess = createEmulator(options());
  behindMsw = createEmulator(options());
  msw.use(...createHandlers(behindMsw, { baseUrl: MSW_BASE }));
  msw.listen({ onUnhandledRequest: "bypass" });
});
afterAll(async () => {
  msw.close();
  await overHttp.close();
});

interface Seen {
  status: number;
  body: string;
  headers: Record<string, string | null>;
}

const seen = async (res: Response): Promise<Seen> => ({
  status: res.status,
  body: await res.text(),
  headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers.get(h)])),
});

it(`answers ${REQUESTS} generated requests identically over HTTP, emulator.fetch and MSW`, async () => {
  const h = newHarvest();
  const differences: string[] = [];
  const statuses = new Map<number, number>();
  const operations = new Set<string>();
  let i = 0;
  const times: [number, number, number] = [0, 0, 0];
  for (const req of generateRequests(
    20261127,
    REQUESTS,
    { logsToken: LOGS_TOKEN, accounts: [ALICE, BOB] },
    h,
  )) {
    if (i === 4_000) {
      // Faults are part of the model too: the same rules on all three.
      for (const emu of [overHttp, inProcess, behindMsw]) {
        emu.faults.add({ operationId: "listLogs", status: 503, retryAfter: 0.25, times: 3 });
        emu.faults.add({ path: "/v2/redis/*", status: 500, times: 2 });
        emu.faults.add({ operationId: "listDatabases", malformedBody: true, times: 1 });
      }
    }
    const init: RequestInit = { method: req.method, headers: req.headers, body: req.body ?? null };
    lastOperation = undefined;
    let t0 = performance.now();
    const answers = [await seen(await fetch(`${overHttp.url}${req.target}`, init))];
    times[0] += performance.now() - t0;
    t0 = performance.now();
    answers.push(await seen(await inProcess.fetch(`http://emulator.test${req.target}`, init)));
    times[1] += performance.now() - t0;
    t0 = performance.now();
    answers.push(await seen(await fetch(`${MSW_BASE}${req.target}`, init)));
    times[2] += performance.now() - t0;
    const [a, b, c] = answers as [Seen, Seen, Seen];
    for (const [name, other] of [
      ["emulator.fetch", b],
      ["MSW", c],
    ] as const) {
      if (JSON.stringify(other) !== JSON.stringify(a)) {
        differences.push(
          `#${i} ${req.method} ${req.target} (${name}): ${JSON.stringify(a).slice(0, 300)} != ${JSON.stringify(other).slice(0, 300)}`,
        );
      }
    }
    statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    const op = lastOperation;
    if (op && a.status === 200) operations.add(op);
    try {
      harvest(h, op, JSON.parse(a.body));
    } catch {
      // not JSON (a malformed-body fault)
    }
    i++;
  }
  console.log("ms per form", times.map(Math.round), Object.fromEntries(statuses));
  expect(i).toBe(REQUESTS);
  expect(differences.slice(0, 5)).toEqual([]);
  expect(differences).toHaveLength(0);
  // The run covers what it claims: successes of every operation, refusals of each kind.
  expect([...statuses.keys()].sort()).toEqual(
    expect.arrayContaining([200, 400, 401, 404, 405, 429, 500, 503]),
  );
  expect(operations.size).toBeGreaterThanOrEqual(55);
}, 600_000);
