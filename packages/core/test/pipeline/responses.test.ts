import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConflictError, InvalidResponseError } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

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
    const error = await rejection(testApi(server.url).call("getThing", {}));
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
    const error = await rejection(testApi(server.url).call("listItems", {}));
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

describe("acknowledgements", () => {
  it.each([
    ["JSON string", '"OK"'],
    ["plain text", "OK"],
    ["lower case with whitespace", "  ok\n"],
    ["empty body", ""],
    // The spec types the acknowledgement as a string: another JSON string is one too.
    ["another JSON string", '"not ok"'],
  ])("accepts %s", async (_name, body) => {
    server.enqueue({ status: 200, body });
    expect(await testApi(server.url).call("toggle", { path: { id: "a" } })).toBeUndefined();
  });

  it.each([["NOPE"], ['{"ok":true}'], ["42"], ['"unterminated']])("rejects %s", async (body) => {
    server.enqueue({ status: 200, body });
    const error = await rejection(testApi(server.url).call("toggle", { path: { id: "a" } }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('expected the acknowledgement "OK"');
  });

  it("an error saying the state already matches resolves (x-already-applied)", async () => {
    server.enqueue({ status: 400, body: { error: "tls is already enabled for this database" } });
    expect(await testApi(server.url).call("toggle", { path: { id: "a" } })).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("any other error of that operation still throws", async () => {
    server.enqueue({ status: 409, body: { error: "database is being deleted" } });
    const error = await rejection(testApi(server.url).call("toggle", { path: { id: "a" } }));
    expect(error).toBeInstanceOf(ConflictError);
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
});
