import { describe, expectTypeOf, it } from "vitest";
import { createLogsClient, type LogEntry, type LogPage } from "../src/index.js";

const logs = createLogsClient({ token: "t" });

describe("logs client types", () => {
  it("types results", () => {
    expectTypeOf(logs.list()).resolves.toEqualTypeOf<LogPage>();
    expectTypeOf(logs.iterate()).toEqualTypeOf<AsyncGenerator<LogEntry, void, undefined>>();
    expectTypeOf<LogPage["cursor"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<LogEntry["time"]>().toEqualTypeOf<string | number>();
  });

  it("accepts known states in any case and any other string", () => {
    void logs.list({ state: "DELIVERED" });
    void logs.list({ state: "delivered" });
    void logs.list({ state: "SOMETHING_NEW" });
    void logs.list({ fromDate: new Date(), toDate: Date.now() });
  });

  it("rejects wrong filter names and orders", () => {
    // @ts-expect-error misspelled filter
    void logs.list({ mesageId: "m" });
    // @ts-expect-error order is one of the two values
    void logs.list({ order: "newestFirst" });
    // @ts-expect-error count is a number
    void logs.list({ count: "10" });
    // @ts-expect-error fromDate is a number or a Date
    void logs.iterate({ fromDate: "2024-01-01" });
    // @ts-expect-error token is a string (or left out, to read QSTASH_TOKEN)
    createLogsClient({ token: 42 });
  });

  it("raw reads an entry's open-set state as a string (openapi-typescript issue 2765)", async () => {
    const { data } = await logs.raw.GET("/v2/logs", {});
    const state: string | undefined = data?.logs?.[0]?.state;
    void state;
  });
});
