import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ApiClientError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from "../../src/index.js";
import type { LogEvent, ManagementClient } from "../../src/index.js";
import { clientFor } from "../support/client.js";
import { startRecordingServer } from "../support/recording-server.js";
import type { RecordingServer } from "../support/recording-server.js";

let server: RecordingServer;
let m: ManagementClient;

beforeAll(async () => {
  server = await startRecordingServer();
  m = clientFor(server, { maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("statuses map to the shared error classes", () => {
  const table: [number, new (...args: never[]) => ApiError][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [405, ApiError],
    [406, ApiError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
  ];

  it.each(table)("%i", async (status, type) => {
    server.reply({
      status,
      headers: { "x-should-retry": "false" },
      body: { error: `failed with ${status}` },
    });
    const error = await failure(m.databases.get("db"));
    expect(error).toBeInstanceOf(type);
    expect(error.status).toBe(status);
    expect(error.message).toContain(`failed with ${status}`);
  });
});

describe("the server's message is read from error, then message, then the raw text", () => {
  const bodies: [string, { body: unknown; headers?: Record<string, string> }, string][] = [
    ["error", { body: { error: "database not found" } }, "database not found"],
    ["message", { body: { message: "team not found" } }, "team not found"],
    [
      "error before message",
      { body: { error: "from error", message: "from message" } },
      "from error",
    ],
    [
      "plain text",
      { body: "index does not exist", headers: { "content-type": "text/plain" } },
      "index does not exist",
    ],
  ];

  it.each(bodies)("%s", async (_name, reply, message) => {
    server.reply({ status: 404, ...reply });
    const error = await failure(m.vector.get("idx"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain(message);
    expect(error.method).toBe("GET");
    expect(error.url).toBe(`${server.url}/v2/vector/index/idx`);
  });

  it("keeps the parsed body", async () => {
    server.reply({ status: 400, body: { error: "bad region", code: "E42" } });
    const error = await failure(m.databases.create({ name: "n" }));
    expect(error.body).toEqual({ error: "bad region", code: "E42" });
  });
});

describe("responses that break the contract", () => {
  it("a 200 whose body is not JSON is an InvalidResponseError", async () => {
    server.reply({ body: "<html>maintenance</html>", headers: { "content-type": "text/html" } });
    const error = await failure(m.databases.list());
    expect(error).toBeInstanceOf(InvalidResponseError);
  });

  it("an empty 200 where a record is promised is an InvalidResponseError", async () => {
    server.reply({ body: "" });
    await expect(m.teams.list()).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it.each([
    [
      "a list answering an object",
      () => m.databases.list(),
      { databases: [] },
      "expected a JSON array",
    ],
    [
      "a record answering an array",
      () => m.databases.get("db"),
      [{ database_id: "db" }],
      "expected a JSON object",
    ],
    [
      "a record answering the acknowledgement",
      () => m.vector.get("idx"),
      "OK",
      "expected a JSON object",
    ],
    [
      "a record answering null",
      () => m.teams.create({ team_name: "t", copy_cc: false }),
      null,
      "expected a JSON object",
    ],
  ] as const)("%s is an InvalidResponseError", async (_, call, body, reason) => {
    server.reply({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    const error = await failure(call());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.status).toBe(200);
    expect(error.message).toContain(reason);
  });

  it("an acknowledged operation answering something other than OK resolves, with a warning (never an error after the change was applied)", async () => {
    server.reply({ body: { status: "queued" } });
    const events: LogEvent[] = [];
    const client = clientFor(server, { logger: (event) => events.push(event) });
    await expect(client.databases.delete("db")).resolves.toBeUndefined();
    const warnings = events.filter((event) => event.type === "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ method: "DELETE" });
    expect((warnings[0] as { message: string }).message).toContain('{"status":"queued"}');
  });
});

describe("network failures", () => {
  it("a refused connection is a ConnectionError", async () => {
    const closed = await startRecordingServer();
    const url = closed.url;
    await closed.close();
    const client = clientFor({ url } as RecordingServer, { maxRetries: 0 });
    const error: unknown = await client.databases.list().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(ApiClientError);
  });
});
