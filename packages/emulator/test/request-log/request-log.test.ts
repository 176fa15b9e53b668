// The request log: which API requests arrived, with the trace context each carried.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { Emulator, RequestRecord } from "../../src/index.js";
import { formatRequest, REQUEST_LOG_SIZE } from "../../src/internal/request-log.js";
import { getLogs, LOGS_TOKEN, start } from "../helpers.js";

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
let emu: Emulator;
const heard: RequestRecord[] = [];
beforeAll(async () => {
  emu = await start({ seedLogs: 5, onRequest: (record) => heard.push(record) });
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.reset();
  heard.length = 0;
});

const get = (headers: Record<string, string>, path = "/v2/logs?count=2&cursor=secret-cursor") =>
  fetch(`${emu.url}${path}`, { headers: { authorization: `Bearer ${LOGS_TOKEN}`, ...headers } });

it("keeps each API request's method, path, status, operation and traceparent, never its query", async () => {
  await (await get({ traceparent: TRACEPARENT, tracestate: "vendor=1" })).text();
  await getLogs(emu, {}, "/v2/nowhere");
  expect(emu.requests()).toEqual([
    {
      time: expect.any(Number) as number,
      method: "GET",
      path: "/v2/logs",
      operationId: "listLogs",
      status: 400,
      traceparent: TRACEPARENT,
      tracestate: "vendor=1",
    },
    { time: expect.any(Number) as number, method: "GET", path: "/v2/nowhere", status: 404 },
  ]);
  expect(JSON.stringify(emu.requests())).not.toContain("secret-cursor");
  expect(heard.map((r) => r.status)).toEqual([400, 404]);
});

it.each([
  ["a malformed traceparent", "00-xyz-b7ad6b7169203331-01"],
  ["an all-upper-case valid one (kept, lower-cased)", TRACEPARENT.toUpperCase()],
])("accepts %s without failing the request", async (_name, value) => {
  const res = await get({ traceparent: value }, "/v2/logs?count=1");
  expect(res.status).toBe(200);
  const [record] = emu.requests();
  expect(record?.traceparent).toBe(
    /^[\dA-Fa-f-]{55}$/.test(value) ? value.toLowerCase() : undefined,
  );
});

it("is served by the admin API, and forgotten by reset", async () => {
  await (await get({ traceparent: TRACEPARENT }, "/v2/logs?count=1")).text();
  const res = await fetch(`${emu.url}/__emulator/requests`);
  expect(((await res.json()) as RequestRecord[]).map((r) => r.traceparent)).toEqual([TRACEPARENT]);
  emu.reset();
  expect(emu.requests()).toEqual([]);
});

it(`keeps only the last ${REQUEST_LOG_SIZE}`, async () => {
  for (let batch = 0; batch < REQUEST_LOG_SIZE + 50; batch += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async () => (await get({}, "/v2/nowhere")).text()),
    );
  }
  expect(emu.requests()).toHaveLength(REQUEST_LOG_SIZE);
});

it("prints as one line", () => {
  const line = formatRequest({
    time: 0,
    method: "GET",
    path: "/v2/logs",
    status: 200,
    operationId: "listLogs",
    traceparent: TRACEPARENT,
  });
  expect(line).toBe(
    `1970-01-01T00:00:00.000Z GET /v2/logs 200 listLogs traceparent=${TRACEPARENT}`,
  );
});
