// Issue #30: each call owns its state, and every per-request option of openapi-fetch that `raw`'s
// types accept either goes through the one request path (auth, checks, retries) or is refused by name.
import { describe, expect, it } from "vitest";
import { InvalidResponseError, ValidationError } from "../../src/index.js";
import { rejection, SECRET, testApi } from "../support/api.js";
import { useTestServer } from "../support/test-server.js";

const server = useTestServer();
const NOW = { "retry-after-ms": "0" };

/** `raw` without its path types: the tests send to paths and options the test spec does not list. */
type Loose = Record<string, (path: string, init?: object) => Promise<Record<string, unknown>>>;

describe("each call owns its state (issue #30, defect 1)", () => {
  it("a retry re-sends its own body, never the body of an earlier call that failed", async () => {
    const api = testApi(server.url, { maxRetries: 1 });
    const raw = api.raw as unknown as Loose;
    // Fails inside openapi-fetch after its body serializer ran: a lone surrogate cannot be encoded.
    const failed = await rejection(
      raw.POST!("/things", { body: { stale: 1 }, params: { query: { q: "\ud800" } } }),
    );
    expect(failed).toBeInstanceOf(ValidationError);
    server.enqueue({ status: 503, headers: NOW }, { status: 200, body: {} });
    const result = await raw.PUT!("/y", { body: "fresh", bodySerializer: (body: string) => body });
    expect(result.error).toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.path} ${r.body}`)).toEqual([
      "PUT /y fresh",
      "PUT /y fresh",
    ]);
  });
});

describe("openapi-fetch's per-request options on `raw` (issue #30, defects 2 and 3)", () => {
  it("`bodySerializer`: the body is checked as given and sent as serialized (defect 2)", async () => {
    server.enqueue({ status: 200, body: { id: 1 } });
    const { data, error } = await testApi(server.url).raw.POST("/things", {
      body: { name: "a" },
      bodySerializer: (body) => `${JSON.stringify(body)}\n`,
    });
    expect(error).toBeUndefined();
    expect(data).toEqual({ id: 1 });
    expect(server.requests.map((r) => r.body)).toEqual(['{"name":"a"}\n']);
  });

  it("`bodySerializer`: a body that breaks the spec's rules is still refused", async () => {
    const error = await rejection(
      testApi(server.url).raw.POST("/things", {
        body: { name: 1 } as never,
        bodySerializer: (body) => JSON.stringify(body),
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
  });

  it("`fetch`: the attempts go through it with auth and retries (defect 3)", async () => {
    server.enqueue({ status: 503, headers: NOW }, { status: 200, body: { id: 2 } });
    const seen: string[] = [];
    const { data } = await testApi(server.url).raw.GET("/thing", {
      fetch: (input: Request) => {
        seen.push(input.method);
        return fetch(input);
      },
    });
    expect(data).toEqual({ id: 2 });
    expect(seen).toEqual(["GET", "GET"]);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${SECRET}`,
      `Bearer ${SECRET}`,
    ]);
  });

  it("`fetch`: an answer that is not a Response is an InvalidResponseError naming the option, not retried", async () => {
    let calls = 0;
    const error = await rejection(
      testApi(server.url).raw.GET("/thing", {
        fetch: (async () => {
          calls++;
          return undefined;
        }) as never,
      }),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain("the `fetch` option resolved to undefined");
    expect(calls).toBe(1);
  });

  it("`baseUrl` is refused by name: the client's credentials never follow a call elsewhere", async () => {
    const error = await rejection(
      testApi(server.url).raw.GET("/thing", {
        // @ts-expect-error -- refused by the types too
        baseUrl: "http://127.0.0.1:1",
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("baseUrl");
    expect(server.requests).toHaveLength(0);
  });

  it("`querySerializer`, `headers`, `parseAs`, `middleware` and `signal` go through the one path", async () => {
    server.enqueue({ status: 503, headers: NOW }, { status: 200, body: { id: 3 } });
    const seen: string[] = [];
    const { data } = await testApi(server.url).raw.GET("/thing", {
      params: { query: { count: 5 } },
      querySerializer: (query) => `n=${String((query as { count: number }).count)}`,
      headers: { "x-extra": "1" },
      parseAs: "text",
      signal: new AbortController().signal,
      middleware: [
        {
          onRequest({ request }) {
            seen.push(`request ${request.headers.has("authorization")}`);
          },
          onResponse({ response }) {
            seen.push(`response ${response.status}`);
          },
        },
      ],
    });
    expect(data).toBe('{"id":3}');
    // Middleware sees the request once, before the attempts (no credentials), and the final answer.
    expect(seen).toEqual(["request false", "response 200"]);
    expect(server.requests.map((r) => `${r.url} ${String(r.headers["x-extra"])}`)).toEqual([
      "/thing?n=5 1",
      "/thing?n=5 1",
    ]);
  });
});
