import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ApiClientError, ApiError, ValidationError, type LogEvent } from "../../src/index.js";
import { useTestServer, closedPortUrl } from "../support/test-server.js";
import { SECRET, rejection, testApi, thrown } from "../support/api.js";

const server = useTestServer();

function expectNoSecret(value: unknown): void {
  expect(inspect(value, { depth: Infinity, showHidden: true })).not.toContain(SECRET);
  expect(JSON.stringify(value) ?? "").not.toContain(SECRET);
  expect(String(value)).not.toContain(SECRET);
  if (value instanceof Error) expect(value.stack ?? "").not.toContain(SECRET);
}

describe("credentials never leak", () => {
  it("the token is sent, but not kept in errors or log events", async () => {
    const events: LogEvent[] = [];
    server.enqueue(
      { status: 503, headers: { "retry-after-ms": "0" } },
      { status: 401, body: { error: "invalid token" }, headers: { "x-request-id": "r" } },
    );
    const api = testApi(server.url, { logger: (event) => events.push(event) });
    const error = await rejection(api.request("getThing", {}));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(error).toBeInstanceOf(ApiClientError);
    expectNoSecret(error);
    expect(events.map((event) => event.type)).toEqual([
      "request",
      "response",
      "retry",
      "request",
      "response",
      "error",
    ]);
    expectNoSecret(events);
  });

  it("a server echoing the credentials in its error body and headers has them redacted", async () => {
    const echo = {
      status: 401,
      body: { error: `bad token Bearer ${SECRET}`, token: SECRET },
      headers: { "www-authenticate": `Bearer realm="${SECRET}"`, "x-echo": SECRET },
    };
    const events: LogEvent[] = [];
    const api = testApi(server.url, { maxRetries: 0, logger: (event) => events.push(event) });
    server.enqueue(echo);
    const error = await rejection(api.request("getThing", {}));
    expect(error).toBeInstanceOf(ApiError);
    expectNoSecret(error);
    expectNoSecret((error as ApiError).body);
    expect([...(error as ApiError).headers.values()].join(" ")).not.toContain(SECRET);
    expect((error as Error).message).toContain("bad token [REDACTED] (GET");
    expectNoSecret(events);

    server.enqueue(echo);
    const { error: body, response } = await api.raw.GET("/thing");
    expectNoSecret(body);
    expect(await response.text()).not.toContain(SECRET);
    expect([...response.headers.values()].join(" ")).not.toContain(SECRET);
  });

  it("a 2xx body echoing the credentials is redacted from InvalidResponseError", async () => {
    server.enqueue({ status: 200, body: `not json ${SECRET}` });
    const error = await rejection(testApi(server.url).request("getThing", {}));
    expectNoSecret(error);
  });

  it("connection and timeout errors do not carry it", async () => {
    const refusedUrl = await closedPortUrl();
    const refused = await rejection(testApi(refusedUrl, { maxRetries: 0 }).request("getThing", {}));
    expectNoSecret(refused);
    server.enqueue({ hang: true });
    const timedOut = await rejection(
      testApi(server.url, { maxRetries: 0, timeoutMs: 50 }).request("getThing", {}),
    );
    expectNoSecret(timedOut);
  });

  it("util.inspect and JSON.stringify of the API object do not show it", () => {
    const api = testApi(server.url, { maxRetries: 1, timeoutMs: 1234 });
    expectNoSecret(api);
    expectNoSecret(api.raw);
  });

  it("a baseUrl with user-info is refused without echoing it", () => {
    const error = thrown(() => testApi(`https://admin:${SECRET}@api.example.com`));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("baseUrl");
    expectNoSecret(error);
  });
});
