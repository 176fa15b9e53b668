// `--redis-url`: every call of the server goes through the budget shared in Redis.
import { spawnSync } from "node:child_process";
import { connect as tcp } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startRedisServer,
  type RedisServer,
} from "../../../rate-limit-redis/test/support/redis-server.js";
import { BIN, connect, textOf, useEmulator } from "../support/server.js";

const h = useEmulator({ seedLogs: 50 });
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis.stop());

/** The keys Redis holds (`KEYS *`, spoken in RESP over TCP). */
function redisKeys(port: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = tcp(port, "127.0.0.1", () => socket.write("*2\r\n$4\r\nKEYS\r\n$1\r\n*\r\n"));
    let reply = "";
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      const count = Number(/^\*(-?\d+)\r\n/.exec(reply)?.[1] ?? NaN);
      const lines = reply.split("\r\n");
      if (Number.isNaN(count) || lines.length < 1 + count * 2) return;
      socket.end();
      resolve(lines.slice(1, 1 + count * 2).filter((_, i) => i % 2 === 1));
    });
    socket.on("error", reject);
  });
}

describe("--redis-url", () => {
  it("the calls' rate-limit state is kept in that Redis (no credential in its keys)", async () => {
    expect(await redisKeys(redis.port)).toEqual([]);
    const client = await connect(h.emu, ["--redis-url", redis.url]);
    try {
      const result = await client.callTool({ name: "list_logs", arguments: { count: 5 } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const keys = await redisKeys(redis.port);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith("api-clients:rate-limit:"))).toBe(true);
    expect(keys.join(" ")).not.toContain(h.emu.credentials.logsToken);
  });

  it("an unreachable Redis: calls still succeed (each process falls back to its own gate)", async () => {
    const client = await connect(h.emu, ["--redis-url", "redis://127.0.0.1:1"]);
    try {
      const result = await client.callTool({ name: "list_logs", arguments: { count: 5 } });
      expect((JSON.parse(textOf(result)) as { events: unknown[] }).events).toHaveLength(5);
    } finally {
      await client.close();
    }
  });

  it("a value that is not a Redis URL is a usage error (exit code 2)", () => {
    const result = spawnSync(process.execPath, [BIN, "--redis-url", "http://x"], {
      encoding: "utf8",
      env: { PATH: process.env["PATH"] ?? "" },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--redis-url");
  });

  it("two server processes with one --confirm-secret and one Redis: a token from one is accepted once by the other", async () => {
    const db = (await h.m.request("createDatabase", {
      body: { database_name: "r", primary_region: "us-east-1", platform: "aws" },
    } as never)) as { database_id: string };
    const flags = ["--allow-writes", "--redis-url", redis.url];
    const secret = ["--confirm-secret", "one-secret-for-every-instance-0123"];
    const a = await connect(h.emu, [...flags, ...secret]);
    const b = await connect(h.emu, [...flags, ...secret]);
    const deletes = () => h.emu.requests().filter((r) => r.operationId === "deleteDatabase").length;
    try {
      const args = { id: db.database_id };
      const first = await a.callTool({ name: "delete_database", arguments: args });
      const token = (
        first.structuredContent as { confirmation_required: { confirmation_token: string } }
      ).confirmation_required.confirmation_token;
      expect(deletes()).toBe(0);
      const sent = await b.callTool({
        name: "delete_database",
        arguments: { ...args, confirmation_token: token },
      });
      expect(textOf(sent)).toBe("OK");
      expect(deletes()).toBe(1);
      const again = await a.callTool({
        name: "delete_database",
        arguments: { ...args, confirmation_token: token },
      });
      expect(textOf(again)).toContain("already used");
      expect(deletes()).toBe(1);
      expect(
        (await redisKeys(redis.port)).filter((k) =>
          k.startsWith("api-clients-mcp:used-confirmation:"),
        ),
      ).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a --confirm-secret under 32 characters is a usage error that does not echo it (exit code 2)", () => {
    const result = spawnSync(process.execPath, [BIN, "--confirm-secret", "short-secret"], {
      encoding: "utf8",
      env: { PATH: process.env["PATH"] ?? "" },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("at least 32 characters");
    expect(result.stderr).not.toContain("short-secret");
  });
});
