// maxResponseBytes (issue #12, item 3): enforced while the body streams in, for success and error
// bodies, with or without a declared length; a body over the limit is never retried.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  BadRequestError,
  InvalidResponseError,
  NotFoundError,
  type LogEvent,
} from "../../src/index.js";
import { useTestServer, type ScriptedResponse } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

const server = useTestServer();

const LIMIT = 64 * 1024;
const REASON = `response body is larger than maxResponseBytes (${LIMIT} bytes)`;

describe("maxResponseBytes", () => {
  it.each<[string, ScriptedResponse, typeof ApiError, string]>([
    [
      "a 200 body with a declared length",
      { status: 200, streamBytes: 10 * LIMIT },
      InvalidResponseError,
      `200 OK: ${REASON} (GET URL)`,
    ],
    [
      "a chunked 200 body (no length)",
      { status: 200, streamBytes: 10 * LIMIT, chunked: true },
      InvalidResponseError,
      `200 OK: ${REASON} (GET URL)`,
    ],
    // Issue #24, item 20: a proxy's large error page keeps the class its status deserves.
    [
      "a chunked 400 error body",
      { status: 400, streamBytes: 10 * LIMIT, chunked: true },
      BadRequestError,
      `400 Bad Request (GET URL); ${REASON}, not read`,
    ],
    [
      "a 404 error body with a declared length",
      { status: 404, streamBytes: 10 * LIMIT },
      NotFoundError,
      `404 Not Found (GET URL); ${REASON}, not read`,
    ],
  ])(
    "%s larger than the limit fails with the class of its status, naming the limit",
    async (_name, script, ErrorClass, message) => {
      server.enqueue(script, { status: 200, body: {} });
      const events: LogEvent[] = [];
      const api = testApi(server.url, {
        maxResponseBytes: LIMIT,
        logger: (event) => events.push(event),
      });
      const error = await rejection(api.request("getThing", {}));
      expect(error).toBeInstanceOf(ErrorClass);
      const failure = error as ApiError;
      expect(failure.status).toBe(script.status);
      expect(failure.attempts).toBe(1);
      expect(failure.body).toBeUndefined();
      expect(failure.message).toBe(message.replace("URL", `${server.url}/thing`));
      // The same request would get the same body: it is not retried.
      expect(server.requests).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: "error", error: failure.message });
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

  it("an encoded body counts its decoded bytes: a small gzip that inflates past the limit is refused", async () => {
    const inflated = " ".repeat(10 * LIMIT);
    const body = gzipSync(`{"pad":"${inflated}"}`);
    expect(body.byteLength).toBeLessThan(LIMIT);
    server.enqueue({ status: 200, headers: { "content-encoding": "gzip" }, body });
    const error = await rejection(
      testApi(server.url, { maxResponseBytes: LIMIT }).request("getThing", {}),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain(REASON);
  });

  it("an encoded body within the limit reads as its decoded JSON, its content-length the decoded one", async () => {
    const text = JSON.stringify({ pad: "x".repeat(1000) });
    server.enqueue({ status: 200, headers: { "content-encoding": "gzip" }, body: gzipSync(text) });
    const { data, response } = await testApi(server.url, { maxResponseBytes: LIMIT }).raw.GET(
      "/thing",
    );
    expect(data).toEqual({ pad: "x".repeat(1000) });
    expect(response.headers.get("content-length")).toBe(String(text.length));
  });

  it("a `fetch` option's Response that declares less than it holds is still bounded", async () => {
    const holds = new Uint8Array(2 * LIMIT).fill(0x20);
    const error = await rejection(
      testApi(server.url, {
        maxResponseBytes: LIMIT,
        fetch: async () =>
          new Response(holds, { status: 200, headers: { "content-length": "10" } }),
      }).request("getThing", {}),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain(REASON);
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
