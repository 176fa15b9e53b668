// Named scenarios on the wire: each answers with the service's headers and bodies, composes with the
// others, and ends on its count, its duration, end() or reset(). Through emulator.fetch, with a
// controlled clock; the connection reset also over HTTP.
import { afterEach, describe, expect, it } from "vitest";
import { createEmulator, startEmulator, type InProcessEmulator } from "../../src/index.js";
import { ALICE, BOB, LOGS_TOKEN } from "../helpers.js";

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0, 400);
let now = T0;
const make = (): InProcessEmulator =>
  createEmulator({
    seedLogs: 30,
    logsToken: LOGS_TOKEN,
    accounts: [ALICE, BOB],
    clock: () => now,
    logsEndTime: T0 - 60_000,
    burstLimit: 50,
    dailyQuota: 500,
  });
afterEach(() => {
  now = T0;
});

const BEARER = { authorization: `Bearer ${LOGS_TOKEN}` };
const BASIC = {
  authorization: `Basic ${Buffer.from(`${ALICE.email}:${ALICE.apiKey}`).toString("base64")}`,
};
const logs = (emu: InProcessEmulator, query = "count=5") =>
  emu.fetch(`http://emulator.test/v2/logs?${query}`, { headers: BEARER });

describe("rate limits", () => {
  it("burst-limit-exhausted: 429 with Burst-RateLimit-* (Remaining 0, Reset the next second), counted", async () => {
    const emu = make();
    emu.scenario("burst-limit-exhausted", { times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await logs(emu);
      expect(res.status).toBe(429);
      expect(res.headers.get("burst-ratelimit-limit")).toBe("50");
      expect(res.headers.get("burst-ratelimit-remaining")).toBe("0");
      expect(res.headers.get("burst-ratelimit-reset")).toBe(String(Math.floor(T0 / 1000) + 1));
      const error = "rate limit: burst limit of 50 requests per second reached";
      expect(await res.json()).toEqual({ error, code: "TOO_MANY_REQUESTS", message: error });
    }
    expect((await logs(emu)).status).toBe(200);
    expect(emu.rateLimits).toEqual({ accepted: 1, refused: 2 });
    const admin = await emu.fetch("http://localhost/__emulator/rate-limits");
    expect(await admin.json()).toEqual({ accepted: 1, refused: 2 });
  });

  it("daily-quota-exhausted: 429 with RateLimit-* (Remaining 0, Reset the next UTC midnight)", async () => {
    const emu = make();
    emu.scenario("daily-quota-exhausted");
    const res = await logs(emu);
    expect(res.status).toBe(429);
    expect(res.headers.get("ratelimit-limit")).toBe("500");
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
    expect(res.headers.get("ratelimit-reset")).toBe(String(Date.UTC(2026, 10, 28) / 1000));
    expect(res.headers.get("burst-ratelimit-remaining")).toBeNull();
  });
});

it("server-errors: 3 answers of the status (503 by default) with Retry-After, then normal", async () => {
  const emu = make();
  emu.scenario("server-errors", { retryAfter: 0.5, operationId: "listDatabases" });
  const list = () => emu.fetch("http://emulator.test/v2/redis/databases", { headers: BASIC });
  for (let i = 0; i < 3; i++) {
    const res = await list();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("retry-after-ms")).toBe("500");
  }
  expect((await list()).status).toBe(200);
  expect((await logs(emu)).status).toBe(200);
});

it("slow-body: the whole body, in 4 parts with a wait before each", async () => {
  const emu = make();
  emu.scenario("slow-body", { delayMs: 20 });
  const started = performance.now();
  const res = await logs(emu);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let parts = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts++;
    text += new TextDecoder().decode(value);
  }
  expect(parts).toBe(4);
  expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(text));
  expect((JSON.parse(text) as { events: unknown[] }).events).toHaveLength(5);
  // A lower bound only: the four waits happened (never a speed target).
  expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 20 - 5);
});

it("truncated-body: half of the announced body, then the read fails", async () => {
  const emu = make();
  emu.scenario("truncated-body");
  const res = await logs(emu);
  expect(res.status).toBe(200);
  await expect(res.text()).rejects.toThrow(/terminated/);
  expect((await logs(emu)).status).toBe(200);
});

it("connection-reset: emulator.fetch rejects like fetch; over HTTP the socket closes unanswered", async () => {
  const emu = make();
  emu.scenario("connection-reset");
  await expect(logs(emu)).rejects.toThrow(TypeError);
  expect((await logs(emu)).status).toBe(200);
  const served = await startEmulator({ logsToken: LOGS_TOKEN });
  try {
    served.scenario("connection-reset");
    await expect(fetch(`${served.url}/v2/logs`, { headers: BEARER })).rejects.toThrow(TypeError);
    expect((await fetch(`${served.url}/v2/logs`, { headers: BEARER })).status).toBe(200);
  } finally {
    await served.close();
  }
});

it("expired-cursor: a listing with a cursor answers 400; one without a cursor is served", async () => {
  const emu = make();
  const first = (await (await logs(emu)).json()) as { cursor: string };
  emu.scenario("expired-cursor");
  expect((await logs(emu, "count=5")).status).toBe(200);
  const res = await logs(emu, `count=5&cursor=${first.cursor}`);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: string }).error).toMatch(/^cursor: expired/);
});

it("database-deleted: the database and its backups go at once; the next calls answer 404", async () => {
  const emu = make();
  const call = (method: string, path: string, body?: unknown) =>
    emu.fetch(`http://emulator.test${path}`, {
      method,
      headers: { ...BASIC, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const db = (await (
    await call("POST", "/v2/redis/database", { name: "d", primary_region: "us-east-1" })
  ).json()) as { database_id: string };
  expect((await call("GET", `/v2/redis/list-backup/${db.database_id}`)).status).toBe(200);
  emu.scenario("database-deleted", { databaseId: db.database_id });
  expect((await call("GET", `/v2/redis/list-backup/${db.database_id}`)).status).toBe(404);
  expect((await call("GET", `/v2/redis/database/${db.database_id}`)).status).toBe(404);
  expect(() => emu.scenario("database-deleted", { databaseId: db.database_id })).toThrow(TypeError);
});

it("logs-field: pages put entries under logs until it ends; the logsField option does it from the start", async () => {
  const emu = make();
  const handle = emu.scenario("logs-field");
  const page = (await (await logs(emu)).json()) as Record<string, unknown>;
  expect(Object.keys(page).sort()).toEqual(["cursor", "logs"]);
  handle.end();
  expect(handle.active).toBe(false);
  expect(Object.keys((await (await logs(emu)).json()) as object).sort()).toEqual([
    "cursor",
    "events",
  ]);
  const always = createEmulator({ seedLogs: 3, logsToken: LOGS_TOKEN, logsField: "logs" });
  expect(Object.keys((await (await logs(always)).json()) as object)).toEqual(["logs"]);
});

describe("composing and ending", () => {
  it("the first running scenario that matches takes a request; the others wait their turn", async () => {
    const emu = make();
    emu.scenario("server-errors", { times: 1, operationId: "listLogs" });
    emu.scenario("burst-limit-exhausted", { times: 1 });
    expect((await logs(emu)).status).toBe(503);
    expect((await logs(emu)).status).toBe(429);
    expect((await logs(emu)).status).toBe(200);
  });

  it("ends after durationMs of the emulator's clock, on end(), and on reset()", async () => {
    const emu = make();
    const timed = emu.scenario("burst-limit-exhausted", { times: "always", durationMs: 1_000 });
    expect((await logs(emu)).status).toBe(429);
    now = T0 + 999;
    expect((await logs(emu)).status).toBe(429);
    now = T0 + 1_000;
    expect((await logs(emu)).status).toBe(200);
    expect(timed.active).toBe(false);
    const ended = emu.scenario("server-errors", { times: "always" });
    ended.end();
    expect((await logs(emu)).status).toBe(200);
    const reset = emu.scenario("server-errors", { times: "always" });
    emu.reset();
    expect(reset.active).toBe(false);
    expect((await logs(emu)).status).toBe(200);
  });

  it("runs from the admin API too, and refuses unknown names and options", async () => {
    const emu = make();
    const post = (body: unknown) =>
      emu.fetch("http://localhost/__emulator/scenarios", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const started = await post({ name: "server-errors", options: { times: 1 } });
    expect(await started.json()).toEqual({ running: ["server-errors"] });
    expect((await logs(emu)).status).toBe(503);
    expect((await post({ name: "meteor" })).status).toBe(400);
    expect((await post({ name: "server-errors", options: { status: 404 } })).status).toBe(400);
    expect((await post({ name: "slow-body", options: { delayMs: "5" } })).status).toBe(400);
    expect(() => emu.scenario("meteor" as never)).toThrow(/unknown name/);
  });
});
