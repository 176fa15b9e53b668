import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator, FaultRule } from "../../src/index.js";
import { errorOf, getLogs, mgmt, raw, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 100 });
});
afterAll(() => emu.close());
beforeEach(() => emu.faults.clear());

describe("programmatic faults", () => {
  it("answers the status with Retry-After and headers, `times` times, then recovers", async () => {
    emu.faults.add({
      path: "/v2/logs",
      status: 429,
      times: 2,
      retryAfter: 0.05,
      headers: { "Burst-RateLimit-Remaining": "0" },
    });
    for (let i = 0; i < 2; i++) {
      const a = await getLogs(emu);
      expect(a.status).toBe(429);
      expect(a.headers.get("retry-after-ms")).toBe("50");
      expect(a.headers.get("retry-after")).toBe("1");
      expect(a.headers.get("burst-ratelimit-remaining")).toBe("0");
      expect(errorOf(a)).toMatch(/injected/);
    }
    expect((await getLogs(emu)).status).toBe(200);
  });

  it.each<[string, FaultRule, string, string]>([
    ["an exact path", { path: "/v2/events" }, "/v2/events", "/v2/logs"],
    [
      "a template",
      { path: "/v2/redis/database/{id}" },
      "/v2/redis/database/abc",
      "/v2/redis/databases",
    ],
    ["a prefix", { path: "/v2/vector/*" }, "/v2/vector/index", "/v2/redis/databases"],
    ["an operationId", { operationId: "listTeams" }, "/v2/teams", "/v2/redis/databases"],
    // A literal segment beside a template is another operation.
    [
      "a template beside a literal",
      { path: "/v2/search/{id}" },
      "/v2/search/x",
      "/v2/search/stats",
    ],
    ["a new operation", { operationId: "listQStashUsers" }, "/v2/qstash/users", "/v2/search"],
    ["the audit log", { path: "/auditlogs" }, "/auditlogs", "/v2/search/stats"],
    ["a method", { method: "delete" }, "/v2/team/x", "/v2/teams"],
  ])("matches %s", async (_n, rule, hit, miss) => {
    emu.faults.add({ ...rule, status: 503, times: "always" });
    const method = rule.method ? "DELETE" : "GET";
    expect((await mgmt(emu, "GET", miss)).status).not.toBe(503);
    expect((await mgmt(emu, method, hit)).status).toBe(503);
    expect((await mgmt(emu, method, hit)).status).toBe(503);
  });

  it("sends a custom body", async () => {
    emu.faults.add({ status: 500, body: { message: "boom" } });
    const a = await mgmt(emu, "GET", "/v2/teams");
    expect(a.status).toBe(500);
    expect(a.body).toEqual({ message: "boom" });
  });

  it("delays, then handles normally", async () => {
    emu.faults.add({ path: "/v2/logs", delayMs: 150 });
    const t0 = performance.now();
    const a = await getLogs(emu, { count: 1 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect(a.status).toBe(200);
  });

  it("lets a client time out on a delay", async () => {
    emu.faults.add({ path: "/v2/logs", delayMs: 500, status: 200 });
    await expect(
      fetch(`${emu.url}/v2/logs`, {
        headers: { authorization: "Bearer test-logs-token" },
        signal: AbortSignal.timeout(50),
      }),
    ).rejects.toThrow();
  });

  it("resets the connection", async () => {
    emu.faults.add({ path: "/v2/logs", resetConnection: true });
    await expect(getLogs(emu)).rejects.toThrow();
    expect((await getLogs(emu, { count: 1 })).status).toBe(200);
  });

  it("sends a malformed body", async () => {
    emu.faults.add({ path: "/v2/logs", malformedBody: true });
    const res = await fetch(`${emu.url}/v2/logs`, {
      headers: { authorization: "Bearer test-logs-token" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/json/);
    await expect(res.json()).rejects.toThrow();
  });

  it("rejects an invalid rule", () => {
    expect(() => emu.faults.add({ status: 42 })).toThrow(/status/);
    expect(() => emu.faults.add({ times: 0 })).toThrow(/times/);
  });
});

describe("admin HTTP faults", () => {
  it("adds rules with POST and clears them with DELETE", async () => {
    const add = await raw(emu, "/__emulator/faults", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ path: "/v2/logs", status: 503, retryAfter: 1, times: "always" }]),
    });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ added: 1 });
    const a = await getLogs(emu);
    expect(a.status).toBe(503);
    expect(a.headers.get("retry-after")).toBe("1");
    expect(
      (
        await raw(emu, "/__emulator/faults", {
          method: "DELETE",
          headers: { "content-type": "application/json" },
        })
      ).text,
    ).toBe('"OK"');
    expect((await getLogs(emu, { count: 1 })).status).toBe(200);
  });

  it("rejects an invalid rule with 400 and unknown admin paths with 404", async () => {
    const bad = await raw(emu, "/__emulator/faults", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "x" }),
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toMatch(/^status: /);
    const unknown = await raw(emu, "/__emulator/nope");
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown)).toMatch(/admin/);
  });

  it("appends logs and simulates messages", async () => {
    const before = emu.logs.size;
    const a = await raw(emu, "/__emulator/logs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ messageId: "msg_admin", state: "DELIVERED", time: 5 }]),
    });
    expect(a.body).toEqual({ appended: 1, size: before + 1 });
    const sim = await raw(emu, "/__emulator/logs/simulate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome: "cancelled" }),
    });
    expect((sim.body as { entries: { state: string }[] }).entries.map((e) => e.state)).toEqual([
      "CREATED",
      "CANCEL_REQUESTED",
      "CANCELLED",
    ]);
    expect((await getLogs(emu, { messageId: "msg_admin" })).body).toEqual({
      events: [{ time: 5, messageId: "msg_admin", state: "DELIVERED" }],
    });
  });
});
