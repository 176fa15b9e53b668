import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { LogEntry, paths } from "../../src/index.js";

// The generated types drive openapi-fetch against a real server on 127.0.0.1.
let baseUrl: string;
let seen: { url: string; authorization: string | undefined }[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
  res.setHeader("content-type", "application/json");
  res.end(
    JSON.stringify({
      cursor: "1686652644442-12",
      events: [
        { time: "1686652644442", messageId: "msg_1", state: "DELIVERED", url: "https://a.example" },
      ],
    }),
  );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("generated logs types with openapi-fetch", () => {
  it("sends the typed query and reads the typed page", async () => {
    seen = [];
    const client = createClient<paths>({ baseUrl, headers: { Authorization: "Bearer t0ken" } });
    const { data, error } = await client.GET("/v2/logs", {
      params: { query: { state: "DELIVERED", count: 10, order: "earliestFirst" } },
    });
    expect(error).toBeUndefined();
    expect(seen).toEqual([
      {
        url: "/v2/logs?state=DELIVERED&count=10&order=earliestFirst",
        authorization: "Bearer t0ken",
      },
    ]);
    expect(data?.cursor).toBe("1686652644442-12");
    expect(data?.events?.[0]?.messageId).toBe("msg_1");
    expectTypeOf(data!.events?.[0]?.messageId).toEqualTypeOf<string | undefined>();
    expectTypeOf<LogEntry["time"]>().toEqualTypeOf<string | number>();
  });
});
