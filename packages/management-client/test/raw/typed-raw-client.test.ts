import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createManagementClient, type paths } from "../../src/index.js";

// The generated types drive openapi-fetch (bare, and as `m.raw`) against a real server on 127.0.0.1.
const DATABASE = { database_id: "db_1", database_name: "cache", region: "global", port: 6379 };
let baseUrl: string;
const seen: {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
}[] = [];
const server = createServer((req, res) => {
  seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(DATABASE));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("generated management types with openapi-fetch", () => {
  it("bare openapi-fetch sends the typed path and query and reads the typed record", async () => {
    seen.length = 0;
    const client = createClient<paths>({ baseUrl });
    const { data } = await client.GET("/v2/redis/database/{id}", {
      params: { path: { id: "db_1" }, query: { credentials: "hide" } },
    });
    expect(seen).toEqual([
      { method: "GET", url: "/v2/redis/database/db_1?credentials=hide", authorization: undefined },
    ]);
    expect(data).toEqual(DATABASE);
    expectTypeOf(data?.database_id).toEqualTypeOf<string | undefined>();
  });

  it("m.raw goes through the authenticated transport", async () => {
    seen.length = 0;
    const m = createManagementClient({ email: "a@example.com", apiKey: "k", baseUrl });
    const { data } = await m.raw.GET("/v2/redis/databases");
    expect(seen).toEqual([
      {
        method: "GET",
        url: "/v2/redis/databases",
        authorization: `Basic ${Buffer.from("a@example.com:k").toString("base64")}`,
      },
    ]);
    expect(data).toEqual(DATABASE);
  });
});
