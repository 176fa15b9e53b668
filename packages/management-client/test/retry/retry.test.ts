import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  InternalServerError,
  NotFoundError,
  operationTable,
  RateLimitError,
  TimeoutError,
} from "../../src/index.js";
import type { ManagementClient } from "../../src/index.js";
import { clientFor } from "../support/client.js";
import { database } from "../support/fixtures.js";
import { entries } from "../support/operation-cases.js";
import { startRecordingServer } from "../support/recording-server.js";
import type { RecordingServer } from "../support/recording-server.js";

const SERVICE_UNAVAILABLE = { status: 503, body: { error: "service unavailable" } };

let server: RecordingServer;
let m: ManagementClient;

beforeAll(async () => {
  server = await startRecordingServer();
  m = clientFor(server);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("retry safety follows the operation table", () => {
  it("databases.get is retried on 503 and then succeeds", async () => {
    server.reply(SERVICE_UNAVAILABLE, { body: database });
    await expect(m.databases.get(database.database_id!)).resolves.toEqual(database);
    expect(server.requests).toHaveLength(2);
  });

  it("databases.create is not retried on 503", async () => {
    server.reply(SERVICE_UNAVAILABLE, { body: database });
    await expect(m.databases.create({ name: "cache" })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it("databases.create is retried on 429 after Retry-After (0.05 s)", async () => {
    server.reply(
      { status: 429, headers: { "retry-after": "0.05" }, body: { error: "slow down" } },
      { body: database },
    );
    const started = performance.now();
    await expect(m.databases.create({ name: "cache" })).resolves.toEqual(database);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
    expect(server.requests).toHaveLength(2);
  });

  it("a 429 that persists surfaces as RateLimitError after maxRetries", async () => {
    const limited = { status: 429, headers: { "retry-after": "0" }, body: { error: "slow down" } };
    server.reply(limited, limited);
    await expect(
      m.teams.create({ team_name: "x", copy_cc: false }, { maxRetries: 1 }),
    ).rejects.toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(2);
  });

  // Every operation: 503 (asking for no wait), then success. Idempotent ones see two attempts.
  it.each(entries)("%s on 503", async (id, c) => {
    const { idempotent } = operationTable[id];
    server.reply(
      { ...SERVICE_UNAVAILABLE, headers: { "retry-after": "0" } },
      c.returns === undefined ? { body: '"OK"' } : { body: c.returns },
    );
    const outcome = c.call(m);
    if (idempotent) await expect(outcome).resolves.toEqual(c.returns);
    else await expect(outcome).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(idempotent ? 2 : 1);
  });

  it("non-idempotent operations are the creates, the resets, the transfers and moves out of reach, and the plan changes", () => {
    const once = Object.entries(operationTable)
      .filter(([, op]) => !op.idempotent)
      .map(([id]) => id)
      .sort();
    expect(once).toEqual(
      [
        "addTeamMember",
        "createBackup",
        "createDatabase",
        "createTeam",
        "createVectorIndex",
        "resetDatabasePassword",
        "resetVectorIndexTokens",
        // A repeat after the transfer answers 404 although the transfer happened.
        "transferVectorIndex",
        "createSearchIndex",
        "resetSearchPassword",
        "transferSearchIndex",
        "resetQStashToken",
        "moveQStashToTeam",
        // Neither a safe repeat nor an "already on this plan" answer is documented.
        "changePlan",
        "setQStashPlan",
        // No source says what a repeat answers.
        "renameSearchIndex",
        "updateQStashBudget",
        "enableQStashProdPack",
        "disableQStashProdPack",
      ].sort(),
    );
  });
});

describe("per-call options", () => {
  it("maxRetries: 0 disables the retry of a read", async () => {
    server.reply(SERVICE_UNAVAILABLE, { body: database });
    await expect(m.databases.get("db", undefined, { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("timeoutMs bounds each attempt", async () => {
    const slow = await startRecordingServerWithDelay(300);
    try {
      const client = clientFor(slow.server);
      await expect(
        client.databases.create({ name: "n" }, { timeoutMs: 50 }),
      ).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      await slow.close();
    }
  });

  it("an aborted signal stops the call", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(m.databases.list({ signal: controller.signal })).rejects.toThrow("stop");
    expect(server.requests).toHaveLength(0);
  });
});

/** A server that waits `ms` before answering, for timeouts. */
async function startRecordingServerWithDelay(ms: number) {
  const { createServer } = await import("node:http");
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((_req, res) => {
    timers.add(setTimeout(() => res.end('"OK"'), ms));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    server: { url: `http://127.0.0.1:${address.port}` } as RecordingServer,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("a retried state-changing call that fails says the change may have been applied", () => {
  it("databases.delete: 503, then 404 → NotFoundError with maybeApplied and the sentence", async () => {
    server.reply(SERVICE_UNAVAILABLE, { status: 404, body: { error: "database not found" } });
    const error = await m.databases.delete("db").then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).maybeApplied).toBe(true);
    expect((error as NotFoundError).message).toMatch(/may have been applied/);
    expect((error as NotFoundError).toJSON()).toMatchObject({ maybeApplied: true });
    expect(server.requests).toHaveLength(2);
  });

  it("a single failed attempt is not marked", async () => {
    server.reply({ status: 404, body: { error: "database not found" } });
    const error = await m.databases.delete("db").then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).maybeApplied).toBe(false);
    expect((error as NotFoundError).message).not.toMatch(/may have been applied/);
  });

  it("a read retried after 503 that fails is not marked (nothing to apply)", async () => {
    server.reply(SERVICE_UNAVAILABLE, { status: 404, body: { error: "database not found" } });
    const error = await m.databases.get("db").then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).maybeApplied).toBe(false);
  });

  it("a retry after 429 (the service refused before acting) is not marked", async () => {
    server.reply(
      { status: 429, headers: { "retry-after": "0" }, body: { error: "slow down" } },
      { status: 404, body: { error: "database not found" } },
    );
    const error = await m.databases.delete("db").then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect((error as NotFoundError).maybeApplied).toBe(false);
  });

  it("x-idempotent POST exhausting its retries on 503 is marked", async () => {
    server.reply(SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE);
    const error = await clientFor(server, { maxRetries: 2 })
      .databases.enableEviction("d")
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).maybeApplied).toBe(true);
  });
});

describe("a base URL copied with /v2", () => {
  it("is normalized: the paths carry /v2 (no /v2/v2)", async () => {
    server.reply({ body: [] });
    await clientFor(server, { baseUrl: `${server.url}/v2/` }).databases.list();
    expect(server.requests[0]?.path).toBe("/v2/redis/databases");
  });

  it("the audit log goes to the host's /auditlogs", async () => {
    server.reply({ body: [] });
    await clientFor(server, { baseUrl: `${server.url}/v2` }).auditLogs.list();
    expect(server.requests[0]?.path).toBe("/auditlogs");
  });
});
