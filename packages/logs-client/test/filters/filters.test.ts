import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient, type ListLogsParams } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ handler: () => ({ status: 200, body: { events: [] } }) });
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const client = () => createLogsClient({ token: "tok_123", baseUrl: server.url });

describe("list() sends every filter exactly as the API names it", () => {
  it.each<[string, ListLogsParams, string]>([
    ["no filter", {}, "/v2/logs"],
    ["messageId", { messageId: "msg_1" }, "/v2/logs?messageId=msg_1"],
    ["state, upper-cased", { state: "delivered" }, "/v2/logs?state=DELIVERED"],
    ["filter-only state", { state: "in_progress" }, "/v2/logs?state=IN_PROGRESS"],
    [
      "url with reserved characters",
      { url: "https://example.com/a b?x=1&y=ä#frag" },
      "/v2/logs?url=https%3A%2F%2Fexample.com%2Fa%20b%3Fx%3D1%26y%3D%C3%A4%23frag",
    ],
    ["topicName", { topicName: "orders/eu" }, "/v2/logs?topicName=orders%2Feu"],
    ["scheduleId", { scheduleId: "scd_1" }, "/v2/logs?scheduleId=scd_1"],
    ["queueName", { queueName: "q 1" }, "/v2/logs?queueName=q%201"],
    ["fromDate as number", { fromDate: 1_700_000_000_000 }, "/v2/logs?fromDate=1700000000000"],
    [
      "fromDate and toDate as Date",
      { fromDate: new Date(1_700_000_000_000), toDate: new Date(1_700_000_360_000) },
      "/v2/logs?fromDate=1700000000000&toDate=1700000360000",
    ],
    ["count", { count: 1 }, "/v2/logs?count=1"],
    ["order", { order: "earliestFirst" }, "/v2/logs?order=earliestFirst"],
    [
      "cursor (opaque, beyond 2^53)",
      { cursor: "98765432109876543210-12" },
      "/v2/logs?cursor=98765432109876543210-12",
    ],
  ])("%s", async (_, params, url) => {
    await client().list(params);
    expect(server.requests.map((r) => [r.method, r.url])).toEqual([["GET", url]]);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer tok_123");
  });

  it("sends all filters together", async () => {
    await client().list({
      messageId: "m",
      state: "FAILED",
      url: "https://x.io",
      topicName: "t",
      scheduleId: "s",
      queueName: "q",
      fromDate: 1,
      toDate: 2,
      count: 3,
      order: "latestFirst",
      cursor: "1-1",
    });
    expect(Object.fromEntries(server.requests[0]!.query)).toEqual({
      messageId: "m",
      state: "FAILED",
      url: "https://x.io",
      topicName: "t",
      scheduleId: "s",
      queueName: "q",
      fromDate: "1",
      toDate: "2",
      count: "3",
      order: "latestFirst",
      cursor: "1-1",
    });
  });

  it("listEvents() sends the same query to the older /v2/events path", async () => {
    await client().listEvents({ state: "failed", count: 5 });
    expect(server.requests.map((r) => r.url)).toEqual(["/v2/events?state=FAILED&count=5"]);
  });

  it("names the package and version in User-Agent and adds the user's headers", async () => {
    await createLogsClient({
      token: "t",
      baseUrl: server.url,
      headers: { "x-team": "core" },
    }).list();
    expect(server.requests[0]!.headers["user-agent"]).toMatch(
      /^@api-clients\/logs-client\/\d+\.\d+\.\d+/,
    );
    expect(server.requests[0]!.headers["x-team"]).toBe("core");
  });

  it("raw is the typed openapi-fetch client over the same authenticated transport", async () => {
    const { data } = await client().raw.GET("/v2/logs", { params: { query: { count: 2 } } });
    expect(data).toEqual({ events: [] });
    expect(server.requests.map((r) => [r.url, r.headers.authorization])).toEqual([
      ["/v2/logs?count=2", "Bearer tok_123"],
    ]);
  });
});
