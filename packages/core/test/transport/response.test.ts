import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InvalidResponseError, readAcknowledgement, readJson } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { testTransport } from "../support/transport.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** Fetches like openapi-fetch with `parseAs: "text"`: the body text (or undefined when empty). */
async function getText(body: string, status = 200) {
  server.enqueue({ status, body, headers: { "content-type": "application/json" } });
  const response = await testTransport(server.url).fetch(`${server.url}/v2/thing`);
  const text = await response.text();
  return { data: text === "" ? undefined : text, response };
}

describe("readJson", () => {
  it("parses JSON", async () => {
    expect(readJson<{ a: number }>(await getText('{"a":1}'))).toEqual({ a: 1 });
  });

  it.each([
    ["non-JSON", "<html>oops</html>", "response body is not valid JSON: <html>oops</html>"],
    ["truncated JSON", '{"a":', 'response body is not valid JSON: {"a":'],
    ["empty", "", "response body is empty"],
  ])("a %s 200 body throws InvalidResponseError", async (_name, body, reason) => {
    const result = await getText(body);
    const error = (() => {
      try {
        readJson(result);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidResponseError);
    const invalid = error as InvalidResponseError;
    expect(invalid.status).toBe(200);
    expect(invalid.method).toBe("GET");
    expect(invalid.url).toBe(`${server.url}/v2/thing`);
    expect(invalid.headers.get("content-type")).toBe("application/json");
    expect(invalid.message).toBe(`200 OK: ${reason} (GET ${server.url}/v2/thing)`);
  });
});

describe("readAcknowledgement", () => {
  it.each([
    ["JSON string", '"OK"'],
    ["plain text", "OK"],
    ["lower case with whitespace", "  ok\n"],
    ["empty body", ""],
  ])("accepts %s", async (_name, body) => {
    expect(readAcknowledgement(await getText(body))).toBeUndefined();
  });

  it.each([["NOPE"], ['{"ok":true}'], ['"not ok"']])("rejects %s", async (body) => {
    const result = await getText(body);
    expect(() => readAcknowledgement(result)).toThrow(InvalidResponseError);
    expect(() => readAcknowledgement(result)).toThrow('expected the acknowledgement "OK"');
  });
});
