// Random admin writes (nested, huge, cross-site, wrong content types, huge counts): the admin API
// answers each one with a status < 500, the APIs and the snapshot keep answering 200 afterwards, and
// no request holds the event loop for more than 250 ms (the emulator runs in this process, so the
// stall monitor below sees every stall it causes).
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { LOGS_TOKEN, start } from "../helpers.js";
import { send } from "../raw-http.js";

/**
 * Watches how long this process's own work holds the event loop: a 10 ms timer measures each gap, and
 * a gap counts only as far as the process used CPU during it. On a busy 2-core machine (tests of other
 * packages run in parallel) a gap spent descheduled is not a stall the emulator caused; a gap spent
 * running the emulator's code is, and then its CPU time is as long as the gap.
 */
function stallMonitor(): { stop(): void; longest(): number } {
  const TICK_MS = 10;
  let longest = 0;
  let last = performance.now();
  let cpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    const gap = now - last - TICK_MS;
    longest = Math.max(longest, Math.min(gap, (used.user + used.system) / 1000));
    last = now;
    cpu = process.cpuUsage();
  }, TICK_MS);
  return { stop: () => clearInterval(timer), longest: () => longest };
}

/** Longest stall allowed, milliseconds. */
const MAX_STALL_MS = 250;

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 2_000 });
});
afterAll(() => emu.close());

/** `levels` nested arrays, as text (JSON.stringify cannot build them that deep). */
const deep = (levels: number): string => "[".repeat(levels) + "]".repeat(levels);
/** `levels` nested objects, as text. */
const deepObject = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

const time = fc.oneof(
  fc.integer({ min: 0, max: 8_640_000_000_000_000 }),
  fc.constantFrom(1e21, -1, 1.5, 8_640_000_000_000_001, Number.MAX_VALUE, "1700000000000", "x"),
  fc.double(),
);
const entry = fc.record(
  {
    time,
    messageId: fc.oneof(fc.string({ maxLength: 12 }), fc.constant(5)),
    state: fc.constantFrom("CREATED", "DELIVERED", "ERROR", "", "weird"),
    url: fc.webUrl(),
    extra: fc.jsonValue({ maxDepth: 4 }),
  },
  { requiredKeys: [] },
);
const count = fc.oneof(
  fc.integer({ min: 0, max: 1_200 }),
  fc.constantFrom(1_000, 1_001, 300_000, 1e9, -1, 2.5, 1e21),
);

/** Bodies as text: some are built by hand because JSON.stringify cannot nest that deep. */
const logsBody = fc.oneof(
  fc.array(entry, { maxLength: 30 }).map((e) => JSON.stringify(e)),
  fc.record({ entries: fc.array(entry, { maxLength: 5 }) }).map((e) => JSON.stringify(e)),
  fc.integer({ min: 1, max: 30_000 }).map((n) => `[{"messageId":"msg_deep","body":${deep(n)}}]`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `[{"nested":${deepObject(n)}}]`),
  fc
    .integer({ min: 0, max: 16_000 })
    .map((n) => `[${Array.from({ length: n }, () => "{}").join(",")}]`),
  fc.integer({ min: 0, max: 200_000 }).map((n) => JSON.stringify([{ body: "x".repeat(n) }])),
  fc.constant(`[${Array.from({ length: 30_000 }, (_, i) => `{"time":${i}}`).join(",")}]`),
);
const simulateBody = fc
  .record(
    {
      retries: count,
      stepMs: fc.oneof(count, fc.integer({ min: 0, max: 86_400_000 })),
      startTime: time,
      outcome: fc.constantFrom("delivered", "failed", "cancelled", "in-progress", "nope"),
      header: fc.oneof(
        fc.constant({ a: ["b"] }),
        fc.integer({ min: 1, max: 5_000 }).map((n) => JSON.parse(deepObject(Math.min(n, 900)))),
      ),
      body: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(7)),
    },
    { requiredKeys: [] },
  )
  .map((o) => JSON.stringify(o));
const faultRule = fc.record(
  {
    path: fc.oneof(
      fc.constantFrom("/v2/logs", "/v2/redis/*", "/v2/redis/database/{id}", "*", ""),
      fc.integer({ min: 1, max: 60 }).map((n) => `/${"{a}".repeat(n)}`),
      fc.string({ maxLength: 30 }),
    ),
    status: fc.oneof(fc.integer({ min: 90, max: 620 }), fc.constant("x")),
    times: fc.oneof(count, fc.constant("always")),
    delayMs: fc.oneof(fc.constantFrom(0, 1, 1e12, -5), fc.constant(undefined)),
    retryAfter: fc.oneof(fc.nat(100), fc.string({ maxLength: 10 })),
    headers: fc.dictionary(
      fc.string({ maxLength: 10 }),
      fc.oneof(fc.string({ maxLength: 10 }), fc.nat()),
    ),
    body: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant("x".repeat(70_000))),
    resetConnection: fc.constant(false),
    malformedBody: fc.boolean(),
    method: fc.constantFrom("GET", "POST", "not a method", "DELETE"),
  },
  { requiredKeys: [] },
);
const faultsBody = fc.oneof(
  faultRule.map((r) => JSON.stringify(r)),
  fc.array(faultRule, { maxLength: 5 }).map((r) => JSON.stringify(r)),
  fc
    .integer({ min: 90, max: 2_000 })
    .map((n) =>
      JSON.stringify(Array.from({ length: n }, () => ({ path: "/nowhere", status: 418 }))),
    ),
  fc.integer({ min: 1, max: 30_000 }).map((n) => `{"status":500,"body":${deep(n)}}`),
);
const restoreBody = fc.oneof(
  fc.constant("SNAPSHOT"),
  fc.jsonValue({ maxDepth: 4 }).map((m) => JSON.stringify({ version: 1, management: m })),
  fc
    .record({
      nextSeq: fc.oneof(fc.nat(), fc.constant(-3)),
      appended: fc.array(entry, { maxLength: 5 }),
    })
    .map((logs) => JSON.stringify({ version: 1, logs })),
  fc.integer({ min: 1, max: 30_000 }).map((n) => `{"version":1,"management":${deepObject(n)}}`),
  fc
    .integer({ min: 1, max: 30_000 })
    .map((n) => `{"version":1,"logs":{"appended":[{"seq":1,"x":${deep(n)}}]}}`),
);
const anyBody = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
  fc.constant(""),
  fc.integer({ min: 1, max: 1_100_000 }).map((n) => `"${"y".repeat(n)}"`),
);

const request = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(fc.constant("POST"), fc.constant("/__emulator/logs"), logsBody),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant("POST"),
      fc.constant("/__emulator/logs/simulate"),
      simulateBody,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constant("POST"), fc.constant("/__emulator/faults"), faultsBody),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constant("POST"), fc.constant("/__emulator/restore"), restoreBody),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constantFrom("POST", "DELETE", "PUT", "GET", "OPTIONS"),
      fc.constantFrom(
        "/__emulator/reset",
        "/__emulator/faults",
        "/__emulator/snapshot",
        "/__emulator/health",
        "/__emulator/nope",
        "/__emulator",
      ),
      anyBody,
    ),
  },
);
const contentType = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  undefined,
);
const origin = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  "http://localhost:3000",
  "http://evil.example",
  "null",
);
const hostName = fc.constantFrom(undefined, undefined, undefined, "localhost", "evil.example");

const FOREIGN = new Set(["http://evil.example", "null", "evil.example"]);

it("lets other requests through while a large append of old entries runs", async () => {
  const big = await start({ seedLogs: 100_000 });
  try {
    // Old times land in the middle of the sorted store: the slowest kind of append.
    const start = Date.now() - 86_400_000;
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      time: start + ((i * 7919) % 86_400_000),
      messageId: `msg_old_${i}`,
    }));
    const stalls = stallMonitor();
    const appended = send(big.url, "/__emulator/logs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(entries),
    });
    let answered = 0;
    let done = false;
    void appended.then(() => (done = true));
    // Health checks keep being answered while the append runs.
    while (!done) {
      const h = await send(big.url, "/__emulator/health");
      expect(h.status).toBe(200);
      answered++;
    }
    stalls.stop();
    const a = await appended;
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ appended: 10_000, size: 110_000 });
    expect(answered).toBeGreaterThan(1);
    expect(stalls.longest()).toBeLessThan(MAX_STALL_MS);
  } finally {
    await big.close();
  }
}, 60_000);

it("answers random admin writes without 5xx or stalls, and keeps serving", async () => {
  const snapshotText = JSON.stringify(emu.snapshot());
  const stalls = stallMonitor();
  const port = new URL(emu.url).port;
  let runs = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        request,
        contentType,
        origin,
        hostName,
        async ([method, path, rawBody], type, org, host) => {
          runs++;
          const body = rawBody === "SNAPSHOT" ? snapshotText : rawBody;
          const headers: Record<string, string> = {};
          if (type) headers["content-type"] = type;
          if (org) headers["origin"] = org;
          if (host) headers["host"] = `${host}:${port}`;
          const hasBody = method !== "GET" && method !== "OPTIONS";
          const a = await send(emu.url, path, { method, headers, ...(hasBody ? { body } : {}) });
          const what = `${method} ${path} (${type}, ${org}, ${host}) ${body.slice(0, 120)} -> ${a.status} ${a.text.slice(0, 200)}`;
          expect(a.status, what).toBeLessThan(500);
          if (a.status >= 400)
            expect(typeof (a.body as { error?: unknown }).error, what).toBe("string");
          // Cross-site requests never get through, whatever they carry.
          if (FOREIGN.has(org ?? "") || FOREIGN.has(host ?? "")) expect(a.status, what).toBe(403);
          else if (hasBody && type?.startsWith("application/json") !== true) {
            expect(a.status, what).toBe(415);
          }
          expect(a.headers["access-control-allow-origin"], what).not.toBe("*");

          // Whatever was accepted, the APIs and the snapshot still answer.
          emu.faults.clear();
          const page = await send(emu.url, "/v2/logs?count=100&order=earliestFirst", {
            headers: { authorization: `Bearer ${LOGS_TOKEN}` },
          });
          expect(page.status, `after ${what}: ${page.text.slice(0, 200)}`).toBe(200);
          const cursor = (page.body as { cursor?: string }).cursor;
          if (cursor) {
            const next = await send(emu.url, `/v2/logs?count=100&cursor=${cursor}`, {
              headers: { authorization: `Bearer ${LOGS_TOKEN}` },
            });
            expect(next.status, `after ${what}: ${next.text.slice(0, 200)}`).toBe(200);
          }
          expect((await send(emu.url, "/__emulator/snapshot")).status, `after ${what}`).toBe(200);
          expect(
            (
              await send(emu.url, "/v2/redis/databases", {
                headers: {
                  authorization: `Basic ${Buffer.from("alice@example.com:alice-key").toString("base64")}`,
                },
              })
            ).status,
            `after ${what}`,
          ).toBe(200);
          // Every run reads the snapshot, built in one synchronous step: at 60 000 entries it held the
          // event loop ~95 ms (5 MB), a third of the stall allowed; at 15 000, about a quarter of that.
          if (emu.logs.size > 15_000) emu.reset();
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 45_000 },
    );
  } finally {
    stalls.stop();
  }
  expect(runs).toBeGreaterThan(20);
  expect(stalls.longest()).toBeLessThan(MAX_STALL_MS);
}, 60_000);
