import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const client = () => createLogsClient({ token: "t", baseUrl: server.url });

describe("pages are read tolerantly", () => {
  it("accepts the newer `logs` array and returns it as `events`", async () => {
    const entry = { time: 1_700_000_000_000, messageId: "m1", state: "DELIVERED" };
    server.enqueue({ status: 200, body: { cursor: "1700000000000-3", logs: [entry] } });
    expect(await client().list()).toEqual({ cursor: "1700000000000-3", events: [entry] });
  });

  it("keeps `time` as string or number, unknown states and unknown fields untouched", async () => {
    const events = [
      { time: "1686652644442", messageId: "m1", state: "delivered", header: { "X-A": ["1", "2"] } },
      {
        time: 1_686_652_644_443,
        messageId: "m2",
        state: "CANCELED",
        brandNewField: { nested: true },
      },
      { time: 1_686_652_644_444, messageId: "m3", state: "SOME_FUTURE_STATE", labels: ["a"] },
    ];
    server.enqueue({ status: 200, body: { events, somethingNew: 1 } });
    const page = await client().list();
    expect(page).toEqual({ events });
  });

  it("treats a page without cursor (or with an empty one) as the last page", async () => {
    server.enqueue({ status: 200, body: { cursor: "", events: [] } });
    expect(await client().list()).toEqual({ events: [] });
  });

  it("keeps a cursor whose parts exceed Number.MAX_SAFE_INTEGER as the exact text", async () => {
    server.enqueue({
      status: 200,
      body: '{"cursor":"18446744073709551615-18446744073709551615","events":[]}',
    });
    expect((await client().list()).cursor).toBe("18446744073709551615-18446744073709551615");
  });

  it("keeps a field named __proto__ as an own data key of an entry (issue #24, item 23)", async () => {
    server.enqueue({
      status: 200,
      headers: { "content-type": "application/json" },
      body: '{"events":[{"messageId":"m1","__proto__":{"x":1},"header":{"__proto__":["v"]}}]}',
    });
    const [entry] = (await client().list()).events as unknown as Record<string, unknown>[];
    expect(Object.keys(entry ?? {})).toEqual(["messageId", "__proto__", "header"]);
    expect(Object.getOwnPropertyDescriptor(entry, "__proto__")?.value).toEqual({ x: 1 });
    expect(Object.keys(entry?.header as object)).toEqual(["__proto__"]);
  });
});
