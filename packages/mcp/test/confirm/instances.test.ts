// Confirmation tokens behind a load balancer: two stateless HTTP servers (separate instances, one
// confirmation secret, one Redis or, without redis-server, one in-memory record): a token issued by
// one is accepted once by the other; counted in the emulator's request log.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  hasRedisServer,
  startRedisServer,
  type RedisServer,
} from "../../../rate-limit-redis/test/support/redis-server.js";
import { Backend } from "../../src/internal/backend.js";
import {
  MemoryUsedTokens,
  RedisUsedTokens,
  type RedisSetter,
  type UsedTokens,
} from "../../src/internal/confirm.js";
import { serveHttp, type ServedHttp } from "../../src/internal/http.js";
import { createShared } from "../../src/internal/server.js";
import { credentialsEnv, textOf, useEmulator } from "../support/server.js";

const h = useEmulator();
const SECRET = "the-secret-every-instance-shares!";
const deletes = () => h.emu.requests().filter((r) => r.operationId === "deleteDatabase").length;

let redis: RedisServer | undefined;
beforeAll(async () => {
  if (hasRedisServer()) redis = await startRedisServer();
});
afterAll(() => redis?.stop());

interface Instance {
  client: Client;
  close(): Promise<void>;
}

/** One instance: its own HTTP server, clients and used-token record client, the shared secret. */
async function instance(
  used: UsedTokens,
  clock: { now: number },
  secret = SECRET,
): Promise<Instance> {
  const backend = new Backend({
    env: credentialsEnv(h.emu),
    logs: { baseUrl: h.emu.url },
    management: { baseUrl: h.emu.url },
  });
  const shared = createShared(backend, {
    confirmSecret: secret,
    usedTokens: used,
    now: () => clock.now,
  });
  const served: ServedHttp = await serveHttp(shared, { allowWrites: true }, { port: 0 });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  return {
    client,
    close: async () => {
      await client.close();
      await served.close();
      await shared.confirmations.close();
    },
  };
}

async function database(name: string): Promise<string> {
  const db = await h.m.request("createDatabase", {
    body: { database_name: name, primary_region: "us-east-1", platform: "aws" },
  } as never);
  return (db as { database_id: string }).database_id;
}

const tokenOf = (result: unknown) =>
  (result as { structuredContent: { confirmation_required: { confirmation_token: string } } })
    .structuredContent.confirmation_required.confirmation_token;

const del = (i: Instance, id: string, token?: string) =>
  i.client.callTool({
    name: "delete_database",
    arguments: { id, ...(token === undefined ? {} : { confirmation_token: token }) },
  });

const records = {
  redis: () => new RedisUsedTokens(new Redis(redis!.url) as unknown as RedisSetter),
  memory: (() => {
    // In one process, the two instances share the record (as they share Redis above).
    const shared = new MemoryUsedTokens();
    return () => ({ claim: shared.claim.bind(shared) });
  })(),
};

describe.each(["redis", "memory"] as const)(
  "two instances, one secret, used tokens in %s",
  (kind) => {
    it("a token from one is accepted once by the other; refused for other arguments, a second time, after expiry, or under another secret", async (ctx) => {
      if (kind === "redis" && redis === undefined) ctx.skip();
      const clock = { now: Date.now() };
      const a = await instance(records[kind](), clock);
      const b = await instance(records[kind](), clock);
      const c = await instance(records[kind](), clock, "another-secret-of-at-least-32-chars");
      try {
        const [x, y] = [await database("x"), await database("y")];
        const token = tokenOf(await del(a, x));
        expect(deletes()).toBe(0);

        const other = await del(b, y, token);
        expect(textOf(other)).toContain("issued for other arguments");
        const foreign = await del(c, x, token);
        expect(textOf(foreign)).toContain("issued for other arguments");
        expect(deletes()).toBe(0);

        const sent = await del(b, x, token);
        expect(textOf(sent)).toBe("OK");
        expect(deletes()).toBe(1);
        if (kind === "redis") {
          // The use is recorded in Redis for the token's remaining life (5 minutes: the clock stood still).
          const check = new Redis(redis!.url);
          try {
            const keys = await check.keys("*");
            expect(keys).toHaveLength(1);
            expect(keys[0]).toMatch(/^api-clients-mcp:used-confirmation:[\w-]{22}$/);
            const ttl = await check.pttl(keys[0]!);
            expect(ttl).toBeGreaterThan(290_000);
            expect(ttl).toBeLessThanOrEqual(300_000);
          } finally {
            check.disconnect();
          }
        }

        for (const i of [a, b]) {
          const again = await del(i, x, token);
          expect(again.isError).toBe(true);
          expect(textOf(again)).toContain("already used");
        }
        expect(deletes()).toBe(1);

        // Expiry on the controlled clock: valid 1 ms before 5 minutes, refused at 5 minutes.
        const late = tokenOf(await del(a, y));
        clock.now += 300_000;
        const expired = await del(b, y, late);
        expect(textOf(expired)).toContain("expired");
        expect(deletes()).toBe(1);
        clock.now -= 1;
        expect(textOf(await del(b, y, late))).toBe("OK");
        expect(deletes()).toBe(2);
      } finally {
        await a.close();
        await b.close();
        await c.close();
      }
    });
  },
);

describe("Redis unreachable", () => {
  it("a token is refused (nothing sent), never accepted twice", async () => {
    const clock = { now: Date.now() };
    const down = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    down.on("error", () => undefined);
    const a = await instance(new RedisUsedTokens(down as unknown as RedisSetter), clock);
    try {
      const x = await database("x");
      const token = tokenOf(await del(a, x));
      const refused = await del(a, x, token);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("cannot be checked now");
      expect(deletes()).toBe(0);
    } finally {
      await a.close().catch(() => undefined);
    }
  });
});
