import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClientError, ValidationError, type LogEvent } from "../../src/index.js";
import { closedPortUrl, startTestServer, type TestServer } from "../support/test-server.js";
import { SECRET, rejection, testTransport } from "../support/transport.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function expectNoSecret(value: unknown): void {
  expect(inspect(value, { depth: Infinity, showHidden: true })).not.toContain(SECRET);
  expect(JSON.stringify(value) ?? "").not.toContain(SECRET);
  expect(String(value)).not.toContain(SECRET);
}

describe("credentials never leak", () => {
  it("the token is sent, but not kept in errors or log events", async () => {
    const events: LogEvent[] = [];
    server.enqueue(
      { status: 503, headers: { "retry-after-ms": "0" } },
      { status: 401, body: { error: "invalid token" }, headers: { "x-request-id": "r" } },
    );
    const transport = testTransport(server.url, { logger: (event) => events.push(event) });
    const error = await rejection(transport.fetch(`${server.url}/x`));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as Error).message).not.toContain(SECRET);
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

  it("connection and timeout errors do not carry it", async () => {
    const refusedUrl = await closedPortUrl();
    const refused = await rejection(
      testTransport(refusedUrl, { maxRetries: 0 }).fetch(`${refusedUrl}/x`),
    );
    expectNoSecret(refused);
    server.enqueue({ hang: true });
    const timedOut = await rejection(
      testTransport(server.url, { maxRetries: 0, timeoutMs: 50 }).fetch(`${server.url}/x`),
    );
    expectNoSecret(timedOut);
  });

  it("util.inspect and JSON.stringify of the transport show only the summary", () => {
    const transport = testTransport(server.url, { maxRetries: 1, timeoutMs: 1234 });
    expectNoSecret(transport);
    expect(JSON.parse(JSON.stringify(transport))).toEqual({
      baseUrl: server.url,
      maxRetries: 1,
      timeoutMs: 1234,
    });
    expect(inspect(transport)).toBe(
      `Transport { baseUrl: '${server.url}', maxRetries: 1, timeoutMs: 1234 }`,
    );
  });

  it("a baseUrl with user-info is refused without echoing it", () => {
    const error = (() => {
      try {
        testTransport(`https://admin:${SECRET}@api.example.com`);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("baseUrl");
    expectNoSecret(error);
  });
});
