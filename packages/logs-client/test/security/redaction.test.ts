import { inspect } from "node:util";
import { ValidationError, type LogEvent } from "@api-clients/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogsClient } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

const TOKEN = "sk_live_SECRET_TOKEN_123";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("the token never leaks", () => {
  it("is absent from inspect and JSON of the client, errors and log events", async () => {
    const events: LogEvent[] = [];
    const logs = createLogsClient({
      token: TOKEN,
      baseUrl: server.url,
      maxRetries: 1,
      logger: (event) => events.push(event),
    });
    server.enqueue(
      { status: 503, body: { error: "busy" }, headers: { "retry-after-ms": "1" } },
      { status: 401, body: { error: `bad token ${"x".repeat(3)}` } },
    );
    const error = await logs.list().catch((e: unknown) => e);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const surfaces = [
      inspect(logs, { depth: 10, showHidden: true }),
      JSON.stringify(logs),
      inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(error),
      String(error),
      JSON.stringify(events),
    ];
    expect(events.map((e) => e.type)).toEqual([
      "request",
      "response",
      "retry",
      "request",
      "response",
      "error",
    ]);
    for (const text of surfaces) expect(text).not.toContain(TOKEN);
  });

  it("a header value with CR or LF is refused at construction", () => {
    expect(() =>
      createLogsClient({ token: "t", baseUrl: server.url, headers: { "x-a": "1\r\nx-evil: 1" } }),
    ).toThrow(ValidationError);
  });

  it("a token with CR or LF is refused rather than sent", () => {
    expect(() => createLogsClient({ token: "t\r\nx-evil: 1", baseUrl: server.url })).toThrow(
      ValidationError,
    );
  });

  it("plain http is refused for a non-loopback host unless allowed", () => {
    expect(() => createLogsClient({ token: "t", baseUrl: "http://logs.example.com" })).toThrow(
      ValidationError,
    );
    expect(() =>
      createLogsClient({ token: "t", baseUrl: "http://logs.example.com", allowInsecureHttp: true }),
    ).not.toThrow();
  });
});
