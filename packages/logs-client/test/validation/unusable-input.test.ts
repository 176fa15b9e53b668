// Issue #12, items 6, 10 and 11: input fetch or a timer cannot use is a ValidationError naming the
// field, before any request (at construction where it is an option).
import { ValidationError } from "@api-clients/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient, type LogsClientOptions } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const client = (options: LogsClientOptions = {}) =>
  createLogsClient({ token: "t", baseUrl: server.url, ...options });

function constructionError(options: LogsClientOptions): ValidationError {
  try {
    client(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error("expected a ValidationError");
}

describe("unusable input", () => {
  it.each([
    ["messageId", { messageId: "msg_\uD800" }],
    ["topicName", { topicName: "\uDFFFtopic" }],
    ["state", { state: ["DELIVERED", "\uD83D"] }],
  ])("a lone surrogate in the %s filter is a ValidationError naming it", async (name, params) => {
    const error = await client()
      .list(params as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toMatch(new RegExp(`(^|\\.)${name}$`));
    expect((error as ValidationError).rule).toBe(
      "must be well-formed Unicode (it holds a lone surrogate)",
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each([2 ** 31, 3e9, Number.MAX_SAFE_INTEGER])(
    "timeoutMs %d is refused at construction and per call",
    async (timeoutMs) => {
      expect(constructionError({ timeoutMs }).field).toBe("timeoutMs");
      const error = await client()
        .list({}, { timeoutMs })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toBe(
        "timeoutMs: must be a number of milliseconds > 0 and <= 2147483647 (about 24.8 days)",
      );
      expect(server.requests).toHaveLength(0);
    },
  );

  it("the largest timer delay is accepted and does not fire early", async () => {
    server.enqueue({ status: 200, body: { events: [] }, delayMs: 50 });
    expect(await client({ timeoutMs: 2_147_483_647 }).list()).toEqual({ events: [] });
  });

  it("a token with a character above U+00FF is refused at construction", () => {
    const error = constructionError({ token: "tok\u0100en" });
    expect(error.field).toBe("authorization");
    expect(error.message).not.toContain("tok\u0100en");
  });

  it("a header value above U+00FF is refused at construction", () => {
    expect(constructionError({ headers: { "x-name": "Zoë 名前" } }).field).toBe("headers");
  });

  it("list(null) is a ValidationError", async () => {
    const error = await client()
      .list(null as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("params");
  });

  it("headers given as a Headers object are sent", async () => {
    server.enqueue({ status: 200, body: { events: [] } });
    await client({ headers: new Headers({ "x-team": "blue", "x-trace": "t1" }) }).list();
    expect(server.requests[0]?.headers).toMatchObject({ "x-team": "blue", "x-trace": "t1" });
  });
});
