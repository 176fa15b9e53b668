// maxResponseBytes (issue #12, item 3): enforced while the body streams in, for success and error
// bodies, with or without a declared length; a body over the limit is never retried.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InvalidResponseError, type LogEvent } from "../../src/index.js";
import { startTestServer, type ScriptedResponse, type TestServer } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const LIMIT = 64 * 1024;
const REASON = `response body is larger than maxResponseBytes (${LIMIT} bytes)`;

describe("maxResponseBytes", () => {
  it.each<[string, ScriptedResponse]>([
    ["a 200 body with a declared length", { status: 200, streamBytes: 10 * LIMIT }],
    ["a chunked 200 body (no length)", { status: 200, streamBytes: 10 * LIMIT, chunked: true }],
    ["a chunked error body", { status: 400, streamBytes: 10 * LIMIT, chunked: true }],
    ["an error body with a declared length", { status: 404, streamBytes: 10 * LIMIT }],
  ])(
    "%s larger than the limit fails with InvalidResponseError naming it",
    async (_name, script) => {
      server.enqueue(script, { status: 200, body: {} });
      const events: LogEvent[] = [];
      const api = testApi(server.url, {
        maxResponseBytes: LIMIT,
        logger: (event) => events.push(event),
      });
      const error = await rejection(api.request("getThing", {}));
      expect(error).toBeInstanceOf(InvalidResponseError);
      const invalid = error as InvalidResponseError;
      expect(invalid.status).toBe(script.status);
      expect(invalid.attempts).toBe(1);
      const status = { 200: "200 OK", 400: "400 Bad Request", 404: "404 Not Found" }[
        script.status!
      ];
      expect(invalid.message).toBe(`${status}: ${REASON} (GET ${server.url}/thing)`);
      // The same request would get the same body: it is not retried.
      expect(server.requests).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: "error", error: invalid.message });
    },
  );

  it("raw throws the same error (there is no response to return)", async () => {
    server.enqueue({ status: 200, streamBytes: 10 * LIMIT, chunked: true });
    const error = await rejection(
      testApi(server.url, { maxResponseBytes: LIMIT }).raw.GET("/thing"),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain(REASON);
  });

  it("a body of exactly the limit is accepted", async () => {
    const body = `{"pad":"${" ".repeat(LIMIT - 10)}"}`;
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    server.enqueue({ status: 200, body });
    const thing = await testApi(server.url, { maxResponseBytes: LIMIT }).request("getThing", {});
    expect(thing).toHaveProperty("pad");
  });

  it.each([
    ["a declared length", false],
    ["a chunked body", true],
  ])("stops reading and closes the connection (%s)", async (_name, chunked) => {
    server.enqueue({ status: 200, streamBytes: 1024 * LIMIT, chunked });
    await rejection(testApi(server.url, { maxResponseBytes: LIMIT }).request("getThing", {}));
    const exchange = server.requests[0];
    await Promise.race([exchange?.done, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    expect(exchange?.closedEarly).toBe(true);
  });
});
