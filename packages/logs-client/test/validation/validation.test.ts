import { ValidationError } from "@api-clients/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogsClient, type ListLogsParams } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const client = () => createLogsClient({ token: "t", baseUrl: server.url });

describe("bad input is refused before any request", () => {
  it.each<[string, unknown, string, RegExp]>([
    ["count 0", { count: 0 }, "count", /integer/],
    ["count 1001", { count: 1001 }, "count", /1000/],
    ["count 2.5", { count: 2.5 }, "count", /integer/],
    ["count as text", { count: "10" }, "count", /integer/],
    ["unknown order", { order: "newestFirst" }, "order", /earliestFirst/],
    ["fromDate after toDate", { fromDate: 2, toDate: 1 }, "fromDate", /toDate/],
    ["invalid Date", { fromDate: new Date("nope") }, "fromDate", /Date/],
    ["NaN toDate", { toDate: Number.NaN }, "toDate", /finite/],
    ["state as a number", { state: 5 }, "state", /string/],
    ["misspelled filter", { mesageId: "m" }, "mesageId", /not a known parameter/],
    ["null params", null, "params", /object/],
  ])("%s", async (_, params, field, rule) => {
    const logs = client();
    const calls: (() => Promise<unknown>)[] = [
      () => logs.list(params as ListLogsParams),
      () => logs.iterate(params as ListLogsParams).next(),
    ];
    for (const call of calls) {
      const error = await Promise.resolve()
        .then(call)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
      expect((error as ValidationError).rule).toMatch(rule);
    }
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ["missing", {}],
    ["empty", { token: "" }],
    ["not a string", { token: 42 }],
  ])("a %s token is a ValidationError at construction", (_, options) => {
    expect(() => createLogsClient(options as { token: string })).toThrow(
      expect.objectContaining({ field: "token" }),
    );
  });
});
