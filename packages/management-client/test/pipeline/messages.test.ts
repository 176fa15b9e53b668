// Issue #13, item 4: failures that explain themselves, verbatim: how many attempts were made, why a 429
// was not retried, an abort as a typed error with the signal's reason, and which environment
// variables the credentials can come from.
import {
  AbortError,
  ApiClientError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "@api-clients/core";
import { createLogsClient } from "@api-clients/logs-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createManagementClient } from "../../src/index.js";
import {
  useTestServer,
  API_KEY,
  AUTHORIZATION,
  EMAIL,
  TOKEN,
  closedPortUrl,
  logsAt,
  managementAt,
  rejection,
} from "../support/both-clients.js";

const server = useTestServer();
afterEach(() => vi.unstubAllEnvs());

const SOON = { "retry-after-ms": "0" };

describe("attempts", () => {
  it("a 503 after three attempts says so", async () => {
    server.enqueue(
      ...Array.from({ length: 3 }, () => ({ status: 503, headers: SOON, body: { error: "busy" } })),
    );
    const error = await rejection(logsAt(server.url).list());
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).attempts).toBe(3);
    expect((error as Error).message).toBe(
      `503 Service Unavailable: busy (GET ${server.url}/v2/logs), after 3 attempts`,
    );
  });

  it("a single attempt does not mention attempts", async () => {
    server.enqueue({ status: 404, body: { error: "database not found" } });
    const error = await rejection(managementAt(server.url).databases.get("db1"));
    expect((error as Error).message).toBe(
      `404 Not Found: database not found (GET ${server.url}/v2/redis/database/db1)`,
    );
  });

  it("a connection that keeps failing says so", async () => {
    const url = await closedPortUrl();
    const error = await rejection(managementAt(url, { maxRetries: 1 }).databases.get("db1"));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).attempts).toBe(2);
    expect((error as Error).message).toMatch(
      /^Connection failed \(GET http:\/\/127\.0\.0\.1:\d+\/v2\/redis\/database\/db1\): fetch failed: .*ECONNREFUSED.*, after 2 attempts$/,
    );
  });

  it("a timeout that keeps happening says so", async () => {
    server.enqueue({ hang: true }, { hang: true });
    const error = await rejection(logsAt(server.url, { timeoutMs: 100, maxRetries: 1 }).list());
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      `Request timed out after 100 ms (GET ${server.url}/v2/logs), after 2 attempts`,
    );
  });
});

describe("a 429 asking for more than 60 s", () => {
  it("fails at once, says why it was not retried, and carries retryAfterMs", async () => {
    server.enqueue({
      status: 429,
      headers: { "retry-after": "120" },
      body: { error: "slow down" },
    });
    const error = await rejection(managementAt(server.url).databases.rename("db1", { name: "n" }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect((error as RateLimitError).attempts).toBe(1);
    expect((error as Error).message).toBe(
      `429 Too Many Requests: slow down (POST ${server.url}/v2/redis/rename/db1); not retried: the server asked to wait 120 s (Retry-After), more than the 60 s limit`,
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe("an aborted call", () => {
  it("rejects with AbortError, the signal's reason as cause (while waiting for the response)", async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const reason = new Error("the user navigated away");
    setTimeout(() => controller.abort(reason), 30);
    const error = await rejection(logsAt(server.url).list({}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as AbortError).cause).toBe(reason);
    expect((error as Error).message).toBe("Request aborted: the user navigated away");
  });

  it("during the wait before a retry, and through iterate()", async () => {
    server.enqueue({ status: 503, headers: { "retry-after": "30" } });
    const signal = AbortSignal.timeout(50);
    const error = await rejection(
      (async () => {
        for await (const _ of logsAt(server.url).iterate({}, { signal })) {
          // never reached
        }
      })(),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(signal.reason);
    expect((error as Error).message).toBe(
      "Request aborted: The operation was aborted due to timeout",
    );
  });

  it("of a management call, already aborted, sends nothing", async () => {
    const controller = new AbortController();
    controller.abort("stop");
    const error = await rejection(
      managementAt(server.url).databases.list({ signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe("stop");
    expect((error as Error).message).toBe("Request aborted");
    expect(server.requests).toHaveLength(0);
  });
});

describe("missing credentials name the environment variable", () => {
  it("createLogsClient() without token names QSTASH_TOKEN", () => {
    vi.stubEnv("QSTASH_TOKEN", "");
    expect(() => createLogsClient({ baseUrl: server.url })).toThrow(
      new ValidationError(
        "token",
        "must be a non-empty string (pass `token`, or set the QSTASH_TOKEN environment variable)",
      ),
    );
  });

  it("createLogsClient() reads QSTASH_TOKEN when no token is given", async () => {
    vi.stubEnv("QSTASH_TOKEN", TOKEN);
    server.enqueue({ status: 200, body: { events: [] } });
    await createLogsClient({ baseUrl: server.url }).list();
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("createManagementClient() without email or key names UPSTASH_EMAIL and UPSTASH_API_KEY", () => {
    vi.stubEnv("UPSTASH_EMAIL", "");
    vi.stubEnv("UPSTASH_API_KEY", "");
    expect(() => createManagementClient({ apiKey: API_KEY })).toThrow(
      "email: must be a non-empty string (pass `email`, or set the UPSTASH_EMAIL environment variable)",
    );
    expect(() => createManagementClient({ email: EMAIL })).toThrow(
      "apiKey: must be a non-empty string (pass `apiKey`, or set the UPSTASH_API_KEY environment variable)",
    );
  });

  it("createManagementClient() reads UPSTASH_EMAIL and UPSTASH_API_KEY when not given", async () => {
    vi.stubEnv("UPSTASH_EMAIL", EMAIL);
    vi.stubEnv("UPSTASH_API_KEY", API_KEY);
    server.enqueue({ status: 200, body: [] });
    await createManagementClient({ baseUrl: server.url }).databases.list();
    expect(server.requests[0]?.headers.authorization).toBe(AUTHORIZATION);
  });
});
