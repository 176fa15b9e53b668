import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  NotFoundError,
  ValidationError,
  type ClientOptions,
  type LogEvent,
} from "../../src/index.js";
import { checkRequest, createApi } from "../../src/internal.js";
import { useTestServer } from "../support/test-server.js";
import {
  SECRET,
  USER_AGENT,
  operations,
  rejection,
  testApi,
  thrown,
  type paths,
} from "../support/api.js";

const server = useTestServer();

function construct(options: ClientOptions): unknown {
  try {
    testApi("https://api.example.com", options);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("construction", () => {
  it("uses the default base URL without its trailing slash; documents the defaults", () => {
    const api = createApi<paths>({
      api: "test",
      options: {},
      defaultBaseUrl: "https://qstash.upstash.io/",
      authorization: "Bearer x",
      secrets: [],
      userAgent: "ua",
      operations,
      check: checkRequest,
    });
    expect(api.baseUrl).toBe("https://qstash.upstash.io");
    expect([DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES]).toEqual([
      2,
      30_000,
      8 * 1024 * 1024,
    ]);
  });

  it.each<[string, ClientOptions, string, string]>([
    ["http on a public host", { baseUrl: "http://api.example.com" }, "baseUrl", "must use https"],
    ["another scheme", { baseUrl: "ftp://api.example.com" }, "baseUrl", "must use https"],
    ["not a URL", { baseUrl: "api.example.com" }, "baseUrl", "must be an absolute URL"],
    ["a query", { baseUrl: "https://a.example?x=1" }, "baseUrl", "must not contain a query"],
    ["CR/LF in a header", { headers: { "x-trace": "a\r\nInjected: 1" } }, "headers", "CR, LF"],
    ["LF alone in a header", { headers: { "x-trace": "a\nb" } }, "headers", "CR, LF"],
    ["a bad header name", { headers: { "bad name": "v" } }, "headers", "valid header names"],
    ["a header above U+00FF", { headers: { "x-name": "名前" } }, "headers", "above U+00FF"],
    ["negative maxRetries", { maxRetries: -1 }, "maxRetries", "integer from 0 to 100"],
    ["fractional maxRetries", { maxRetries: 1.5 }, "maxRetries", "integer from 0 to 100"],
    ["zero timeoutMs", { timeoutMs: 0 }, "timeoutMs", "> 0"],
    ["NaN timeoutMs", { timeoutMs: Number.NaN }, "timeoutMs", "> 0"],
    ["timeoutMs above a timer's range", { timeoutMs: 2 ** 31 }, "timeoutMs", "<= 2147483647"],
    ["zero maxResponseBytes", { maxResponseBytes: 0 }, "maxResponseBytes", "integer number"],
    // Issue #24, item 13: NaN (as `Number(process.env.UNSET)` gives) never turns a limit off.
    ["NaN maxRetries", { maxRetries: Number.NaN }, "maxRetries", "integer from 0 to 100"],
    [
      "NaN maxResponseBytes",
      { maxResponseBytes: Number.NaN },
      "maxResponseBytes",
      "integer number",
    ],
    ["a logger that is not a function", { logger: "x" as never }, "logger", "function"],
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

  it("refuses an authorization value fetch could not send, at construction", () => {
    const error = thrown(() =>
      createApi<paths>({
        api: "test",
        options: {},
        defaultBaseUrl: "https://a.example",
        authorization: "Bearer tok\u0100en",
        secrets: [],
        userAgent: "ua",
        operations,
        check: checkRequest,
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("authorization");
  });

  it("validates per-call overrides before sending anything", async () => {
    const api = testApi(server.url);
    const retries = await rejection(api.request("getThing", {}, { maxRetries: -2 }));
    expect((retries as Error).message).toBe("maxRetries: must be an integer from 0 to 100");
    const timeout = await rejection(api.request("getThing", {}, { timeoutMs: -1 }));
    expect(timeout).toBeInstanceOf(ValidationError);
    expect((timeout as ValidationError).field).toBe("timeoutMs");
    // Above a timer's range it would fire at once: refused per call as at construction.
    const huge = await rejection(api.request("getThing", {}, { timeoutMs: 2 ** 31 }));
    expect((huge as Error).message).toBe(
      "timeoutMs: must be a number of milliseconds > 0 and <= 2147483647 (about 24.8 days)",
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("requests", () => {
  it("sends Authorization, User-Agent and the client's headers; per-request headers win", async () => {
    server.enqueue({ status: 200, body: {} });
    const api = testApi(server.url, {
      headers: { "X-Team": "blue", "X-Trace": "client", Authorization: "Bearer other" },
    });
    await api.raw.GET("/thing", { headers: { "x-trace": "call" } });
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe(`Bearer ${SECRET}`);
    expect(headers?.["user-agent"]).toBe(USER_AGENT);
    expect(headers?.["x-team"]).toBe("blue");
    expect(headers?.["x-trace"]).toBe("call");
  });

  it.each<[string, HeadersInit]>([
    ["a Headers object", new Headers({ "x-team": "blue" })],
    ["name/value pairs", [["x-team", "blue"]]],
  ])("accepts headers as %s", async (_name, headers) => {
    server.enqueue({ status: 200, body: {} });
    await testApi(server.url, { headers }).request("getThing", {});
    expect(server.requests[0]?.headers["x-team"]).toBe("blue");
  });

  it("raw returns the 2xx data and the response, with status, headers and url", async () => {
    server.enqueue({ status: 201, headers: { "x-thing": "1" }, body: { id: 1 } });
    const { data, error, response } = await testApi(server.url).raw.GET("/thing", {
      params: { query: { cursor: "a" } },
    });
    expect(error).toBeUndefined();
    expect(data).toEqual({ id: 1 });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-thing")).toBe("1");
    expect(response.url).toBe(`${server.url}/thing?cursor=a`);
  });

  it("call returns the parsed body, keeping fields it does not know", async () => {
    server.enqueue({ status: 200, body: { id: 1, extra: { nested: true } } });
    expect(await testApi(server.url).request("getThing", {})).toEqual({
      id: 1,
      extra: { nested: true },
    });
  });

  it("request sends the JSON body and passes the data through read", async () => {
    server.enqueue({ status: 200, body: { id: 7 } });
    const read = (data: unknown, response: Response) => ({ data, status: response.status });
    const result = await testApi(server.url).request(
      "createThing",
      { body: { name: "a" } },
      undefined,
      read,
    );
    expect(result).toEqual({ data: { id: 7 }, status: 200 });
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/things" });
    expect(server.requests[0]?.body).toBe('{"name":"a"}');
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
  });

  it("emits request and response events with a duration", async () => {
    server.enqueue({ status: 200, body: {}, delayMs: 20 });
    const events: LogEvent[] = [];
    await testApi(server.url, { logger: (event) => events.push(event) }).request("getThing", {});
    const call = {
      api: "test",
      callId: expect.any(String) as string,
      operationId: "getThing",
      path: "/thing",
      method: "GET",
      url: `${server.url}/thing`,
    };
    expect(events).toEqual([
      { type: "request", ...call, attempt: 1 },
      {
        type: "response",
        ...call,
        status: 200,
        attempt: 1,
        durationMs: expect.any(Number) as number,
      },
    ]);
    expect((events[1] as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(15);
  });

  it("warns about body fields the spec does not list, and sends them", async () => {
    server.enqueue({ status: 200, body: {} });
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (event) => events.push(event) });
    await api.request("createThing", { body: { name: "a", colour: "red" } });
    expect(events[0]).toEqual({
      type: "warning",
      api: "test",
      callId: expect.any(String) as string,
      operationId: "createThing",
      path: "/things",
      method: "POST",
      url: `${server.url}/things`,
      message: "body.colour is not in the spec; sent as given",
    });
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({ name: "a", colour: "red" });
  });

  it("a throwing logger does not break the request", async () => {
    server.enqueue({ status: 200, body: { ok: true } });
    const api = testApi(server.url, {
      logger: () => {
        throw new Error("logger bug");
      },
    });
    expect(await api.request("getThing", {})).toEqual({ ok: true });
  });

  it("an async logger that rejects causes no unhandled rejection", async () => {
    // Issue #24, item 5: Node exits with code 1 on an unhandled rejection.
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      server.enqueue({ status: 503, headers: { "retry-after-ms": "0" } }, { status: 404 });
      const api = testApi(server.url, {
        logger: async () => {
          throw new Error("logger bug");
        },
      });
      expect(await rejection(api.request("getThing", {}))).toBeInstanceOf(NotFoundError);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off("unhandledRejection", record);
    }
    expect(unhandled).toEqual([]);
  });

  it("uses a custom fetch for every attempt", async () => {
    server.enqueue({ status: 503, headers: { "retry-after-ms": "0" } }, { status: 200, body: {} });
    let calls = 0;
    const api = testApi(server.url, {
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    await api.request("getThing", {});
    expect(calls).toBe(2);
  });
});

describe("parameters and bodies are checked before anything is sent", () => {
  it.each<[string, (api: ReturnType<typeof testApi>) => Promise<unknown>, string]>([
    [
      "a query value of the wrong type (raw)",
      (api) => api.raw.GET("/thing", { params: { query: { count: "5" as never } } }),
      "count: must be an integer from 1 to 1000",
    ],
    [
      "a query value out of range (call)",
      (api) => api.request("getThing", { query: { count: 0 } }),
      "count: must be an integer from 1 to 1000",
    ],
    [
      "an unknown query parameter",
      (api) => api.request("getThing", { query: { cursr: "a" } }),
      'cursr: is not a known parameter (expected one of "cursor", "count")',
    ],
    ["a missing body", (api) => api.request("createThing", {}), "body: is required"],
    [
      "a body without a required field",
      (api) => api.request("createThing", { body: {} }),
      "body.name: is required",
    ],
    [
      "a path parameter of ..",
      (api) => api.raw.GET("/items/{id}", { params: { path: { id: ".." } } }),
      'id: must not be "." or ".."',
    ],
    [
      "an empty path parameter",
      (api) => api.request("getItem", { path: { id: "" } }),
      "id: must be a non-empty string",
    ],
    [
      "a lone surrogate in a path parameter",
      (api) => api.raw.GET("/items/{id}", { params: { path: { id: "a\uD800" } } }),
      "id: must be well-formed Unicode (it holds a lone surrogate)",
    ],
    [
      "a lone surrogate in a query value",
      (api) => api.request("getThing", { query: { cursor: "\uDC00x" } }),
      "cursor: must be well-formed Unicode (it holds a lone surrogate)",
    ],
  ])("refuses %s", async (_name, send, message) => {
    const error = await rejection(send(testApi(server.url)));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe(message);
    expect(server.requests).toHaveLength(0);
  });
});

describe("raw keeps openapi-fetch's convention", () => {
  it("keeps path parameters inside their segment, also on a retry", async () => {
    server.enqueue(
      { status: 503, headers: { "retry-after-ms": "0" } },
      { status: 200, body: { id: "../teams" } },
    );
    const { data } = await testApi(server.url).raw.GET("/items/{id}", {
      params: { path: { id: "../teams" } },
    });
    expect(data).toEqual({ id: "../teams" });
    expect(server.requests.map((r) => r.url)).toEqual(["/items/..%2Fteams", "/items/..%2Fteams"]);
  });

  it("an HTTP error comes back as { error, response } after the retries", async () => {
    server.enqueue(
      { status: 503, headers: { "retry-after-ms": "0" }, body: { error: "busy" } },
      { status: 404, body: { error: "item not found" } },
    );
    const { data, error, response } = await testApi(server.url).raw.GET("/items/{id}", {
      params: { path: { id: "a" } },
    });
    expect(data).toBeUndefined();
    expect(error).toEqual({ error: "item not found" });
    expect(response.status).toBe(404);
    expect(server.requests).toHaveLength(2);
  });

  it("call throws the typed error for the same response", async () => {
    server.enqueue({ status: 404, body: { error: "item not found" } });
    const error = await rejection(testApi(server.url).request("getItem", { path: { id: "a" } }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      `404 Not Found: item not found (GET ${server.url}/items/a)`,
    );
    expect((error as NotFoundError).attempts).toBe(1);
  });

  it("a path outside the operation table is sent with the client's auth and policy", async () => {
    server.enqueue({ status: 503, headers: { "retry-after-ms": "0" } }, { status: 200, body: [] });
    const raw = testApi(server.url).raw as unknown as {
      GET(path: string): Promise<{ data?: unknown; response: Response }>;
    };
    const { data } = await raw.GET("/elsewhere");
    expect(data).toEqual([]);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${SECRET}`,
      `Bearer ${SECRET}`,
    ]);
  });
});
