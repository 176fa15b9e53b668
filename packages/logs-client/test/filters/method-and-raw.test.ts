// Issue #35: the method, `request()` and `raw` apply the logs API's own query rules alike (one owner,
// `logsQueryRules`, run by the request path as the query is serialized): a lower-case `state` is
// sent upper case, and `fromDate` after `toDate` is refused before anything is sent.
import { ValidationError } from "@api-clients/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient, type LogsClient } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
let logs: LogsClient;
beforeAll(async () => {
  server = await startTestServer({ handler: () => ({ status: 200, body: { events: [] } }) });
  logs = createLogsClient({ token: "t", baseUrl: server.url, maxRetries: 0 });
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const WAYS: [
  string,
  (query: { state?: string; fromDate?: number; toDate?: number }) => Promise<unknown>,
][] = [
  ["list()", (query) => logs.list(query)],
  ['request("listLogs")', (query) => logs.request("listLogs", { query })],
  ["raw.GET", (query) => logs.raw.GET("/v2/logs", { params: { query } })],
];

describe.each(WAYS)("%s", (_way, send) => {
  it.each([
    ["failed", "FAILED"],
    ["in_Progress", "IN_PROGRESS"],
    ["FAILED", "FAILED"],
  ])("sends state %j as %j", async (given, sent) => {
    await send({ state: given });
    expect(server.requests.map((r) => r.url)).toEqual([`/v2/logs?state=${sent}`]);
  });

  it("refuses fromDate after toDate before any request", async () => {
    const error = await send({ fromDate: 2, toDate: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: "fromDate", rule: "must not be later than toDate" });
    expect(server.requests).toHaveLength(0);
  });

  it("sends fromDate equal to toDate", async () => {
    await send({ fromDate: 5, toDate: 5 });
    expect(server.requests.map((r) => r.url)).toEqual(["/v2/logs?fromDate=5&toDate=5"]);
  });
});
