// Issue #19, one acknowledgement rule: every 2xx of an acknowledgement operation resolves (through the
// method and `request()` alike), another string is quoted in exactly one warning event, and
// `x-already-applied` resolves on a 4xx whose message differs in case while a 500 saying the same throws;
// `raw` reads that answer as the same success (`{ data: "OK" }`, the real response kept).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InternalServerError, type LogEvent, type ManagementClient } from "../../src/index.js";
import {
  managementAt,
  rejection,
  startTestServer,
  type TestServer,
} from "../support/both-clients.js";

let server: TestServer;
let m: ManagementClient;
const events: LogEvent[] = [];

beforeAll(async () => {
  server = await startTestServer();
  m = managementAt(server.url, { maxRetries: 0, logger: (event) => events.push(event) });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  events.length = 0;
});

const warnings = () => events.filter((event) => event.type === "warning");

const WAYS: [string, (m: ManagementClient) => Promise<void>][] = [
  ["backups.create", (c) => c.backups.create("db", { name: "nightly" })],
  [
    "request(createBackup)",
    (c) => c.request("createBackup", { path: { id: "db" }, body: { name: "nightly" } }),
  ],
];

describe.each(WAYS)("createBackup through %s", (_way, create) => {
  it.each([
    ['the JSON string "OK"', 200, '"OK"'],
    ["plain-text OK", 200, "OK"],
    ["an empty 200", 200, ""],
    ["a 204 without a body", 204, undefined],
  ])("resolves for %s, with no warning", async (_name, status, body) => {
    server.enqueue({ status, body });
    await expect(create(m)).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(warnings()).toEqual([]);
  });

  it('resolves for "Done" and quotes it in exactly one warning event', async () => {
    server.enqueue({ status: 200, body: "Done" });
    await expect(create(m)).resolves.toBeUndefined();
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({
      operationId: "createBackup",
      method: "POST",
      url: `${server.url}/v2/redis/create-backup/db`,
    });
    expect((warnings()[0] as { message: string }).message).toContain("Done");
  });
});

describe.each([
  ["databases.enableAutoUpgrade", (c: ManagementClient) => c.databases.enableAutoUpgrade("db")],
  [
    "request(enableDatabaseAutoUpgrade)",
    (c: ManagementClient) => c.request("enableDatabaseAutoUpgrade", { path: { id: "db" } }),
  ],
])("x-already-applied through %s", (_way, enable) => {
  it("a 400 whose message says it in another case resolves", async () => {
    server.enqueue({
      status: 400,
      body: { error: "Auto Upgrade is ALREADY ENABLED for this database" },
    });
    await expect(enable(m)).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("a 500 with the same text throws", async () => {
    server.enqueue({
      status: 500,
      body: { error: "Auto Upgrade is ALREADY ENABLED for this database" },
    });
    const error = await rejection(enable(m));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("x-already-applied: the method and raw have the same outcome", () => {
  const ALREADY = {
    status: 400,
    body: { error: "Auto Upgrade is ALREADY ENABLED for this database" },
  };

  it("the method resolves; raw resolves to the acknowledgement with the service's response", async () => {
    server.enqueue(ALREADY);
    await expect(m.databases.enableAutoUpgrade("db")).resolves.toBeUndefined();
    server.enqueue(ALREADY);
    const result = await m.raw.POST("/v2/redis/enable-autoupgrade/{id}", {
      params: { path: { id: "db" } },
    });
    expect(result.error).toBeUndefined();
    expect(result.data).toBe("OK");
    expect(result.response.status).toBe(400);
    expect(await result.response.json()).toEqual(ALREADY.body);
    expect(server.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
  });

  it("another 400 stays an error for both", async () => {
    const other = { status: 400, body: { error: "database not found" } };
    server.enqueue(other);
    await expect(m.databases.enableAutoUpgrade("db")).rejects.toMatchObject({ status: 400 });
    server.enqueue(other);
    const result = await m.raw.POST("/v2/redis/enable-autoupgrade/{id}", {
      params: { path: { id: "db" } },
    });
    expect(result.data).toBeUndefined();
    expect(result.error).toEqual(other.body);
  });
});
