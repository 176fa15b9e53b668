import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ConflictError,
  InternalServerError,
  InvalidResponseError,
  type LogEvent,
} from "../../src/index.js";
import { useTestServer } from "../support/test-server.js";
import { rejection, SECRET, testApi } from "../support/api.js";

const server = useTestServer();

const JSON_TYPE = { "content-type": "application/json" };

describe("a 2xx body that is not what the operation promises", () => {
  it.each([
    ["non-JSON", "<html>oops</html>", "response body is not valid JSON: <html>oops</html>"],
    ["truncated JSON", '{"a":', 'response body is not valid JSON: {"a":'],
    ["empty", "", "response body is empty"],
    ["an array for an object", "[1]", "expected a JSON object: [1]"],
    ["a string for an object", '"OK"', "expected a JSON object: OK"],
    ["null for an object", "null", "expected a JSON object: null"],
  ])("%s throws InvalidResponseError from call", async (_name, body, reason) => {
    server.enqueue({ status: 200, body, headers: JSON_TYPE });
    const error = await rejection(testApi(server.url).request("getThing", {}));
    expect(error).toBeInstanceOf(InvalidResponseError);
    const invalid = error as InvalidResponseError;
    expect(invalid.status).toBe(200);
    expect(invalid.method).toBe("GET");
    expect(invalid.url).toBe(`${server.url}/thing`);
    expect(invalid.headers.get("content-type")).toBe("application/json");
    expect(invalid.message).toBe(`200 OK: ${reason} (GET ${server.url}/thing)`);
    expect(server.requests).toHaveLength(1);
  });

  it("an object for an array throws InvalidResponseError", async () => {
    server.enqueue({ status: 200, body: { items: [] } });
    const error = await rejection(testApi(server.url).request("listItems", {}));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain("expected a JSON array");
  });

  it("malformed JSON through raw throws InvalidResponseError too (not a SyntaxError)", async () => {
    server.enqueue({ status: 200, body: "{oops", headers: JSON_TYPE });
    const error = await rejection(testApi(server.url).raw.GET("/thing"));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe(
      `200 OK: response body is not valid JSON: {oops (GET ${server.url}/thing)`,
    );
  });
});

describe("acknowledgements: every 2xx resolves, one rule for request() and raw", () => {
  it.each([
    ["JSON string", 200, '"OK"'],
    ["plain text", 200, "OK"],
    ["lower case with whitespace", 200, "  ok\n"],
    ["empty 200", 200, ""],
    ["204 without a body", 204, undefined],
  ])("accepts %s without a warning", async (_name, status, body) => {
    server.enqueue({ status, body });
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (event) => events.push(event) });
    expect(await api.request("toggle", { path: { id: "a" } })).toBeUndefined();
    expect(events.filter((event) => event.type === "warning")).toEqual([]);
  });

  it.each([
    ["plain text", "Done", "Done"],
    ["a JSON string", '"not ok"', '"not ok"'],
    ["a JSON object", '{"ok":true}', '{"ok":true}'],
  ])("resolves %s and quotes it in one warning event", async (_name, body, quoted) => {
    server.enqueue({ status: 200, body });
    const events: LogEvent[] = [];
    const api = testApi(server.url, { logger: (event) => events.push(event) });
    expect(await api.request("toggle", { path: { id: "a" } })).toBeUndefined();
    const warnings = events.filter((event) => event.type === "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ method: "POST", url: `${server.url}/toggle/a` });
    expect((warnings[0] as { message: string }).message).toContain(quoted);
  });

  it("raw reads every accepted form as the string OK, and any other text as that string", async () => {
    const api = testApi(server.url);
    server.enqueue({ status: 200, body: " ok " }, { status: 200, body: "Done" });
    expect((await api.raw.POST("/toggle/{id}", { params: { path: { id: "a" } } })).data).toBe("OK");
    expect((await api.raw.POST("/toggle/{id}", { params: { path: { id: "a" } } })).data).toBe(
      "Done",
    );
  });

  it.each([
    [400, "TLS is Already Enabled for this database"],
    [404, "already enabled"],
  ])(
    "a %i saying the state already matches resolves (x-already-applied, any case)",
    async (status, text) => {
      server.enqueue({ status, body: { error: text } });
      expect(await testApi(server.url).request("toggle", { path: { id: "a" } })).toBeUndefined();
      expect(server.requests).toHaveLength(1);
    },
  );

  it("a 500 with the same text throws (x-already-applied is a 4xx answer only)", async () => {
    server.enqueue({ status: 500, body: { error: "already enabled" } });
    const api = testApi(server.url, { maxRetries: 0 });
    const error = await rejection(api.request("toggle", { path: { id: "a" } }));
    expect(error).toBeInstanceOf(InternalServerError);
  });

  it("any other error of that operation still throws", async () => {
    server.enqueue({ status: 409, body: { error: "database is being deleted" } });
    const error = await rejection(testApi(server.url).request("toggle", { path: { id: "a" } }));
    expect(error).toBeInstanceOf(ConflictError);
  });

  it("raw reads an already-applied answer as the acknowledgement, the real response kept", async () => {
    server.enqueue({ status: 400, body: { error: "already enabled" } });
    const result = await testApi(server.url).raw.POST("/toggle/{id}", {
      params: { path: { id: "a" } },
    });
    expect(result.response.status).toBe(400);
    expect(result.data).toBe("OK");
    expect(result.error).toBeUndefined();
    expect(await result.response.json()).toEqual({ error: "already enabled" });
  });
});

describe("the response object", () => {
  it("reports the real url and status; text() and json() read the buffered body", async () => {
    server.enqueue({ status: 200, body: { id: 1 } });
    const { response } = await testApi(server.url).raw.GET("/thing");
    expect(response.url).toBe(`${server.url}/thing`);
    expect(response.redirected).toBe(false);
    expect(response.headers.get("content-length")).toBe(String('{"id":1}'.length));
    expect(await response.text()).toBe('{"id":1}');
  });

  it("every other body reader reads the same bytes: body, arrayBuffer(), blob(), bytes(), clone()", async () => {
    const text = '{"id":1,"name":"é"}';
    const bytes = [...new TextEncoder().encode(text)];
    const read = async () => {
      server.enqueue({ status: 200, body: text, headers: JSON_TYPE });
      return (await testApi(server.url).raw.GET("/thing")).response;
    };
    const first = await read();
    const clone = first.clone();
    expect(first.bodyUsed).toBe(false);
    expect(await new Response(first.body).text()).toBe(text);
    expect(first.bodyUsed).toBe(true);
    expect(clone.url).toBe(`${server.url}/thing`);
    expect(clone.status).toBe(200);
    expect(clone.headers.get("content-type")).toBe("application/json");
    expect([...new Uint8Array(await clone.arrayBuffer())]).toEqual(bytes);
    expect(await (await (await read()).blob()).text()).toBe(text);
    const withBytes = await read();
    if ("bytes" in withBytes) {
      expect([...(await (withBytes as { bytes(): Promise<Uint8Array> }).bytes())]).toEqual(bytes);
    }
  });

  it("a 204 has no body stream, as a fetch response has none", async () => {
    server.enqueue({ status: 204 });
    const { response } = await testApi(server.url).raw.GET("/thing");
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe("");
  });
});

describe("an error body is decoded and parsed once", () => {
  afterEach(() => vi.restoreAllMocks());

  /** Counts, while `run` goes, the JSON.parse and TextDecoder.decode calls that see `marker`. */
  async function counted(marker: string, run: () => Promise<unknown>) {
    const parse = vi.spyOn(JSON, "parse");
    const decode = vi.spyOn(TextDecoder.prototype, "decode");
    const outcome = await run().catch((error: unknown) => error);
    const parses = parse.mock.calls.filter(([text]) => String(text).includes(marker)).length;
    const decodes = decode.mock.results.filter((r) => String(r.value).includes(marker)).length;
    vi.restoreAllMocks();
    return { outcome, parses, decodes };
  }

  it.each([
    ["request()", false],
    ["request() with a logger", true],
  ])("%s: the body parsed once into the typed error", async (_name, logged) => {
    server.enqueue({ status: 409, body: { error: "conflict-marker-1" } });
    const api = testApi(server.url, logged ? { logger: () => undefined } : {});
    const { outcome, parses, decodes } = await counted("conflict-marker-1", () =>
      api.request("getThing", {}),
    );
    expect(outcome).toBeInstanceOf(ConflictError);
    expect((outcome as ConflictError).body).toEqual({ error: "conflict-marker-1" });
    expect({ parses, decodes }).toEqual({ parses: 1, decodes: 1 });
  });

  it.each([
    ["raw", false],
    ["raw with a logger", true],
  ])(
    "%s: openapi-fetch's { error } is the body parsed once (not parsed again)",
    async (_name, logged) => {
      server.enqueue({ status: 409, body: { error: "conflict-marker-2", n: [1, 2] } });
      const api = testApi(server.url, logged ? { logger: () => undefined } : {});
      const { outcome, parses, decodes } = await counted("conflict-marker-2", () =>
        api.raw.GET("/thing"),
      );
      const { error, response } = outcome as { error: unknown; response: Response };
      expect(error).toEqual({ error: "conflict-marker-2", n: [1, 2] });
      expect(response.status).toBe(409);
      expect({ parses, decodes }).toEqual({ parses: 1, decodes: 1 });
      expect(await response.json()).toEqual({ error: "conflict-marker-2", n: [1, 2] });
    },
  );

  it("raw: what it hands back is redacted like before, whatever the body", async () => {
    const escaped = JSON.stringify({ error: `echo ${SECRET}` }).replace(
      SECRET[0]!,
      "\\u00" + SECRET.charCodeAt(0).toString(16),
    );
    for (const [body, want] of [
      [escaped, { error: "echo [REDACTED]" }],
      ["plain text", "plain text"],
      ["", undefined],
      ["  ", "  "],
      ["42", 42],
    ] as const) {
      server.enqueue({ status: 400, body, headers: JSON_TYPE });
      const { error, response } = await testApi(server.url).raw.GET("/thing");
      expect(error).toEqual(want);
      expect(response.status).toBe(400);
      expect(await response.text()).not.toContain(SECRET);
    }
  });

  it("raw: a middleware the caller adds sees the real answer, not the stand-in", async () => {
    server.enqueue({ status: 404, body: { error: "missing" } });
    const api = testApi(server.url);
    const seen: [number, string][] = [];
    api.raw.use({
      async onResponse({ response }) {
        seen.push([response.status, await response.clone().text()]);
      },
    });
    const { error, response } = await api.raw.GET("/thing");
    expect(seen).toEqual([[404, '{"error":"missing"}']]);
    expect(error).toEqual({ error: "missing" });
    expect(response.status).toBe(404);
  });
});
