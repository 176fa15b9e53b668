import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { errorOf, mgmt, raw, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

it.each([
  ["an unknown path", "GET", "/v2/nothing", 404, /^path: no operation/],
  ["a trailing slash", "GET", "/v2/logs/", 404, /^path: /],
  ["the root", "GET", "/", 404, /^path: /],
])("answers %s with 404 and the error shape", async (_n, method, path, status, message) => {
  const a = await raw(emu, path, { method });
  expect(a.status).toBe(status);
  expect(a.headers.get("content-type")).toMatch(/application\/json/);
  expect(errorOf(a)).toMatch(message);
});

it("answers a wrong method with 405 and Allow", async () => {
  const a = await raw(emu, "/v2/vector/index", { method: "PATCH" });
  expect(a.status).toBe(405);
  expect(a.headers.get("allow")).toBe("GET, POST");
  expect(errorOf(a)).toMatch(/^method: PATCH is not allowed/);
  const logs = await raw(emu, "/v2/logs", { method: "POST" });
  expect(logs.status).toBe(405);
  expect(logs.headers.get("allow")).toBe("GET");
});

it("prefers a literal path over a template (/v2/teams/member vs /v2/teams/{team_id})", async () => {
  const a = await mgmt(emu, "POST", "/v2/teams/member", {
    team_id: "t",
    member_email: "x@y.z",
    member_role: "dev",
  });
  expect(a.status).toBe(404);
  expect(errorOf(a)).toMatch(/team t not found/);
});

it("answers a body over 1 MiB with 413", async () => {
  const a = await mgmt(
    emu,
    "POST",
    "/v2/redis/database",
    JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }),
  );
  expect(a.status).toBe(413);
  expect(errorOf(a)).toMatch(/^body: must be at most 1048576 bytes/);
  // Still serving.
  expect((await mgmt(emu, "GET", "/v2/redis/databases")).status).toBe(200);
});

it.each([
  ["invalid JSON", "{name:", /^body: is not valid JSON/],
  ["a JSON array", "[]", /^body: must be an object$/],
  ["a JSON string", '"x"', /^body: must be an object$/],
])("answers %s with 400", async (_n, body, message) => {
  const a = await mgmt(emu, "POST", "/v2/redis/database", body);
  expect(a.status).toBe(400);
  expect(errorOf(a)).toMatch(message);
});

it.each([
  ["no credentials", undefined],
  ["a Bearer token", "Bearer test-logs-token"],
  ["a wrong key", `Basic ${Buffer.from("alice@example.com:wrong").toString("base64")}`],
  ["an unknown e-mail", `Basic ${Buffer.from("eve@example.com:alice-key").toString("base64")}`],
  ["garbage", "Basic !!!"],
])("answers management calls with %s with 401", async (_n, authorization) => {
  const a = await raw(
    emu,
    "/v2/redis/databases",
    authorization ? { headers: { authorization } } : {},
  );
  expect(a.status).toBe(401);
  expect(a.headers.get("www-authenticate")).toMatch(/^Basic/);
  expect(errorOf(a)).toMatch(/^authorization: /);
});

it("does not accept management credentials on the logs API", async () => {
  const a = await raw(emu, "/v2/logs", {
    headers: {
      authorization: `Basic ${Buffer.from("alice@example.com:alice-key").toString("base64")}`,
    },
  });
  expect(a.status).toBe(401);
});

it("keeps connections alive between requests", async () => {
  const a = await raw(emu, "/v2/redis/databases", {
    headers: {
      authorization: `Basic ${Buffer.from("alice@example.com:alice-key").toString("base64")}`,
    },
  });
  expect(a.headers.get("connection")).not.toBe("close");
});
