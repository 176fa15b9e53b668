import createClient from "openapi-fetch";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  NotFoundError,
  ValidationError,
  createTransport,
  readJson,
  type ClientOptions,
  type LogEvent,
} from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { SECRET, rejection, testTransport } from "../support/transport.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function construct(options: ClientOptions): unknown {
  try {
    testTransport("https://api.example.com", options);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("construction", () => {
  it("uses the default base URL and documented defaults", () => {
    const transport = createTransport({
      options: {},
      defaultBaseUrl: "https://qstash.upstash.io/",
      authorization: "Bearer x",
      userAgent: "ua",
    });
    expect(transport.baseUrl).toBe("https://qstash.upstash.io");
    expect(transport.maxRetries).toBe(DEFAULT_MAX_RETRIES);
    expect(transport.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect([DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS]).toEqual([2, 30_000]);
  });

  it.each<[string, ClientOptions, string, string]>([
    ["http on a public host", { baseUrl: "http://api.example.com" }, "baseUrl", "must use https"],
    ["another scheme", { baseUrl: "ftp://api.example.com" }, "baseUrl", "must use https"],
    ["not a URL", { baseUrl: "api.example.com" }, "baseUrl", "must be an absolute URL"],
    ["a query", { baseUrl: "https://a.example?x=1" }, "baseUrl", "must not contain a query"],
    [
      "CR/LF in a header",
      { headers: { "x-trace": "a\r\nInjected: 1" } },
      "headers.x-trace",
      "CR, LF",
    ],
    ["LF alone in a header", { headers: { "x-trace": "a\nb" } }, "headers.x-trace", "CR, LF"],
    [
      "a bad header name",
      { headers: { "bad name": "v" } },
      "headers.bad name",
      "valid header name",
    ],
    ["negative maxRetries", { maxRetries: -1 }, "maxRetries", "integer >= 0"],
    ["fractional maxRetries", { maxRetries: 1.5 }, "maxRetries", "integer >= 0"],
    ["zero timeoutMs", { timeoutMs: 0 }, "timeoutMs", "> 0"],
    ["NaN timeoutMs", { timeoutMs: Number.NaN }, "timeoutMs", "> 0"],
  ])("refuses %s", (_name, options, field, rule) => {
    const error = construct(options);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect((error as ValidationError).rule).toContain(rule);
  });

  it.each([
    "http://127.0.0.1:8080",
    "http://127.1.2.3",
    "http://localhost:3000/",
    "http://[::1]:8080",
    "https://api.example.com/base/",
  ])("accepts %s", (baseUrl) => {
    expect(construct({ baseUrl })).toBeUndefined();
  });

  it("accepts plain http on a public host only with allowInsecureHttp", () => {
    expect(construct({ baseUrl: "http://10.0.0.5", allowInsecureHttp: true })).toBeUndefined();
    expect(construct({ baseUrl: "http://10.0.0.5" })).toBeInstanceOf(ValidationError);
  });

  it("validates per-call overrides", () => {
    const transport = testTransport(server.url);
    expect(() => transport.fetchFor({ maxRetries: -2 }, { idempotent: true })).toThrow(
      "maxRetries: must be an integer >= 0",
    );
    expect(() => transport.fetchFor({ timeoutMs: -1 }, { idempotent: true })).toThrow(
      ValidationError,
    );
  });
});

describe("requests", () => {
  it("sends Authorization, User-Agent and the client's headers; per-request headers win", async () => {
    server.enqueue({ status: 200 });
    const transport = testTransport(server.url, {
      headers: { "X-Team": "blue", "X-Trace": "client", Authorization: "Bearer other" },
    });
    await transport.fetch(`${server.url}/x`, { headers: { "x-trace": "call" } });
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe(`Bearer ${SECRET}`);
    expect(headers?.["user-agent"]).toBe("@api-clients/core-test/0.0.0");
    expect(headers?.["x-team"]).toBe("blue");
    expect(headers?.["x-trace"]).toBe("call");
  });

  it("returns the 2xx response itself, with status, headers and url", async () => {
    server.enqueue({ status: 201, headers: { "x-thing": "1" }, body: { id: 1 } });
    const response = await testTransport(server.url).fetch(`${server.url}/things?a=1`);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.headers.get("x-thing")).toBe("1");
    expect(response.url).toBe(`${server.url}/things?a=1`);
    expect(await response.json()).toEqual({ id: 1 });
  });

  it("emits request and response events with a duration", async () => {
    server.enqueue({ status: 200, delayMs: 20 });
    const events: LogEvent[] = [];
    await testTransport(server.url, { logger: (event) => events.push(event) }).fetch(
      `${server.url}/x`,
    );
    expect(events).toEqual([
      { type: "request", method: "GET", url: `${server.url}/x`, attempt: 1 },
      {
        type: "response",
        method: "GET",
        url: `${server.url}/x`,
        status: 200,
        attempt: 1,
        durationMs: expect.any(Number) as number,
      },
    ]);
    expect((events[1] as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(15);
  });

  it("a throwing logger does not break the request", async () => {
    server.enqueue({ status: 200, body: "fine" });
    const transport = testTransport(server.url, {
      logger: () => {
        throw new Error("logger bug");
      },
    });
    expect(await (await transport.fetch(`${server.url}/x`)).text()).toBe("fine");
  });

  it("uses a custom fetch for every attempt", async () => {
    server.enqueue({ status: 503, headers: { "retry-after-ms": "0" } }, { status: 200 });
    let calls = 0;
    const transport = testTransport(server.url, {
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    await transport.fetch(`${server.url}/x`);
    expect(calls).toBe(2);
  });
});

describe("with openapi-fetch", () => {
  interface paths {
    "/v2/items/{id}": {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      get: {
        parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
        requestBody?: never;
        responses: {
          200: {
            headers: Record<string, unknown>;
            content: { "application/json": { id: string } };
          };
        };
      };
      put?: never;
      post?: never;
      delete?: never;
      options?: never;
      head?: never;
      patch?: never;
      trace?: never;
    };
  }

  it("works as the per-request fetch and keeps path parameters inside their segment", async () => {
    server.enqueue(
      { status: 503, headers: { "retry-after-ms": "0" } },
      { status: 200, body: { id: "../teams" } },
    );
    const transport = testTransport(server.url);
    const raw = createClient<paths>({ baseUrl: transport.baseUrl });
    const result = await raw.GET("/v2/items/{id}", {
      params: { path: { id: "../teams" } },
      parseAs: "text",
      fetch: transport.fetchFor(undefined, { idempotent: true }),
    });
    expect(readJson<{ id: string }>(result)).toEqual({ id: "../teams" });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v2/items/..%2Fteams",
      "/v2/items/..%2Fteams",
    ]);
  });

  it("throws the typed error instead of returning { error }", async () => {
    server.enqueue({ status: 404, body: { error: "item not found" } });
    const transport = testTransport(server.url);
    const raw = createClient<paths>({ baseUrl: transport.baseUrl, fetch: transport.fetch });
    const error = await rejection(raw.GET("/v2/items/{id}", { params: { path: { id: "a" } } }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      `404 Not Found: item not found (GET ${server.url}/v2/items/a)`,
    );
  });
});
