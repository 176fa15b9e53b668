// Issue #13 item 3: a browser page can call both APIs: preflights are answered, and every answer
// (errors and injected faults included) carries the CORS headers, so the page sees the real status.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { LOGS_TOKEN, start } from "../helpers.js";
import { JSON_HEADERS, send, type RawAnswer } from "../raw-http.js";

const PAGE = "http://localhost:5173";
const bearer = { authorization: `Bearer ${LOGS_TOKEN}`, origin: PAGE };

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 20 });
});
afterAll(() => emu.close());
beforeEach(() => emu.faults.clear());

function expectCors(a: RawAnswer, origin = "*"): void {
  expect(a.headers["access-control-allow-origin"]).toBe(origin);
  const exposed = String(a.headers["access-control-expose-headers"]).split(/,\s*/);
  for (const h of [
    "retry-after",
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "burst-ratelimit-limit",
    "burst-ratelimit-remaining",
    "burst-ratelimit-reset",
    "x-request-id",
  ]) {
    expect(exposed).toContain(h);
  }
}

describe("preflight", () => {
  it.each([
    ["GET", "/v2/logs"],
    ["POST", "/v2/redis/database"],
    ["DELETE", "/v2/redis/database/some-id"],
    ["PATCH", "/v2/anything"],
    ["POST", "/v2/search"],
    ["PATCH", "/v2/qstash/update-budget/some-id"],
    ["GET", "/auditlogs"],
  ])("answers %s %s with 204 and the allowed methods and headers", async (method, path) => {
    const a = await send(emu.url, path, {
      method: "OPTIONS",
      headers: {
        origin: PAGE,
        "access-control-request-method": method,
        "access-control-request-headers": "authorization, content-type, x-trace",
      },
    });
    expect(a.status).toBe(204);
    expect(a.headers["access-control-allow-origin"]).toBe("*");
    expect(String(a.headers["access-control-allow-methods"])).toContain(method);
    const allowed = String(a.headers["access-control-allow-headers"]).split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "x-trace"]));
    expect(Number(a.headers["access-control-max-age"])).toBeGreaterThan(0);
  });

  it("is answered before faults, so a preflight never uses up a rule", async () => {
    emu.faults.add({ path: "/v2/logs", status: 429, retryAfter: 1 });
    const pre = await send(emu.url, "/v2/logs", {
      method: "OPTIONS",
      headers: { origin: PAGE, "access-control-request-method": "GET" },
    });
    expect(pre.status).toBe(204);
    const a = await send(emu.url, "/v2/logs", { headers: bearer });
    expect(a.status).toBe(429);
  });

  it("leaves an OPTIONS that is not a preflight to the API (405)", async () => {
    const a = await send(emu.url, "/v2/logs", { method: "OPTIONS", headers: { origin: PAGE } });
    expect(a.status).toBe(405);
    expectCors(a);
  });
});

describe("every answer carries the CORS headers", () => {
  it("on a page of logs", async () => {
    const a = await send(emu.url, "/v2/logs?count=2", { headers: bearer });
    expect(a.status).toBe(200);
    expectCors(a);
  });

  it.each([
    ["401 (no credentials)", "/v2/logs", {}, 401],
    ["400 (invalid query)", "/v2/logs?count=x", bearer, 400],
    ["404 (no such path)", "/v2/nope", bearer, 404],
    ["401 (management without Basic)", "/v2/redis/databases", { origin: PAGE }, 401],
    ["401 (a QStash user without Basic)", "/v2/qstash/users", { origin: PAGE }, 401],
    ["200 (the QStash IPv4 list, open)", "/v2/qstash/ipv4", { origin: PAGE }, 200],
  ])("on %s", async (_name, path, headers, status) => {
    const a = await send(emu.url, path, { headers: { origin: PAGE, ...headers } });
    expect(a.status).toBe(status);
    expectCors(a);
  });

  it("on 413", async () => {
    // fetch reads the early answer even though the server stops reading the body.
    const res = await fetch(`${emu.url}/v2/redis/database`, {
      method: "POST",
      headers: { ...JSON_HEADERS, origin: PAGE },
      body: "x".repeat(1024 * 1024 + 1),
    });
    await res.text();
    expect(res.status).toBe(413);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("retry-after");
  });

  it("on an injected 429 and 503, and exposes a rule's own headers", async () => {
    emu.faults.add({
      path: "/v2/logs",
      status: 429,
      retryAfter: 2,
      headers: { "burst-ratelimit-remaining": "0", "x-custom": "1" },
    });
    const a = await send(emu.url, "/v2/logs", { headers: bearer });
    expect(a.status).toBe(429);
    expect(a.headers["retry-after"]).toBe("2");
    expectCors(a);
    expect(String(a.headers["access-control-expose-headers"])).toContain("x-custom");

    emu.faults.add({ operationId: "listDatabases", status: 503 });
    const b = await send(emu.url, "/v2/redis/databases", { headers: { origin: PAGE } });
    expect(b.status).toBe(503);
    expectCors(b);
  });

  it("on an injected malformed body", async () => {
    emu.faults.add({ path: "/v2/logs", malformedBody: true });
    const a = await send(emu.url, "/v2/logs", { headers: bearer });
    expect(a.status).toBe(200);
    expectCors(a);
  });
});

describe("corsOrigin", () => {
  it("sends a single configured origin as is", async () => {
    const one = await start({ corsOrigin: "http://app.test:3000" });
    try {
      const a = await send(one.url, "/v2/logs", { headers: bearer });
      expectCors(a, "http://app.test:3000");
    } finally {
      await one.close();
    }
  });

  it("echoes a listed origin (with Vary: Origin) and leaves others without access", async () => {
    const list = await start({ corsOrigin: ["http://a.test", "http://b.test:8080"] });
    try {
      const b = await send(list.url, "/v2/logs", {
        headers: { ...bearer, origin: "http://b.test:8080" },
      });
      expectCors(b, "http://b.test:8080");
      expect(String(b.headers["vary"])).toMatch(/origin/i);
      const other = await send(list.url, "/v2/logs", {
        headers: { ...bearer, origin: "http://c.test" },
      });
      expect(other.status).toBe(200);
      expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await list.close();
    }
  });

  it("false sends no CORS headers and leaves preflights to the API", async () => {
    const none = await start({ corsOrigin: false });
    try {
      const a = await send(none.url, "/v2/logs", { headers: bearer });
      expect(a.headers["access-control-allow-origin"]).toBeUndefined();
      const pre = await send(none.url, "/v2/logs", {
        method: "OPTIONS",
        headers: { origin: PAGE, "access-control-request-method": "GET" },
      });
      expect(pre.status).toBe(405);
    } finally {
      await none.close();
    }
  });

  it("refuses a value that is not an origin", async () => {
    await expect(start({ corsOrigin: "localhost:3000" })).rejects.toThrow(/^corsOrigin: /);
  });
});

describe("the admin API does not follow the permissive setting", () => {
  it("never answers * to a page, and refuses a foreign page's preflight", async () => {
    const health = await send(emu.url, "/__emulator/health", {
      headers: { origin: "http://evil.example" },
    });
    expect(health.status).toBe(403);
    expect(health.headers["access-control-allow-origin"]).toBeUndefined();
    const pre = await send(emu.url, "/__emulator/reset", {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(403);
    expect(pre.headers["access-control-allow-origin"]).toBeUndefined();
    const local = await send(emu.url, "/__emulator/health", { headers: { origin: PAGE } });
    expect(local.headers["access-control-allow-origin"]).toBe(PAGE);
  });
});
