// Error bodies carry the fields both published documents use: the logs document's (and older
// deployments') `error`, the management reference's `code` and `message`; the clients' message
// reader (core's `ApiError`: `error`, then `message`) still shows the emulator's reason, once.
import { ApiError } from "@api-clients/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { getLogs, mgmt, raw, start, type Answer } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const cases: [string, () => Promise<Answer>, number, string, RegExp][] = [
  [
    "a refused body",
    () => mgmt(emu, "POST", "/v2/team", "{"),
    400,
    "BAD_REQUEST",
    /^body: is not valid JSON$/,
  ],
  ["no credentials", () => raw(emu, "/v2/teams"), 401, "UNAUTHORIZED", /^authorization: /],
  [
    "a wrong logs token",
    () => getLogs(emu, {}, "/v2/logs", "wrong"),
    401,
    "UNAUTHORIZED",
    /^authorization: the token is not valid$/,
  ],
  [
    "a missing database",
    () => mgmt(emu, "GET", "/v2/redis/database/nope"),
    404,
    "NOT_FOUND",
    /^database nope not found$/,
  ],
  ["an unknown path", () => raw(emu, "/v2/nothing"), 404, "NOT_FOUND", /^path: no operation/],
  [
    "a wrong method",
    () => raw(emu, "/v2/logs", { method: "POST" }),
    405,
    "METHOD_NOT_ALLOWED",
    /^method: POST/,
  ],
  [
    "a logs count out of range",
    () => getLogs(emu, { count: 5000 }),
    400,
    "BAD_REQUEST",
    /^count: /,
  ],
];

it.each(cases)(
  "%s: { error, code, message }, error and message the same reason",
  async (_n, send, status, code, reason) => {
    const a = await send();
    expect(a.status).toBe(status);
    const body = a.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["code", "error", "message"]);
    expect(body["code"]).toBe(code);
    expect(body["error"]).toMatch(reason);
    expect(body["message"]).toBe(body["error"]);
    // What the clients show: the reason once, not prefixed by the code.
    const err = ApiError.from({
      status,
      headers: a.headers,
      body,
      method: "GET",
      url: `${emu.url}/x`,
    });
    expect(err.message).toContain(`: ${body["error"] as string} (GET `);
    expect(err.message).not.toContain(code);
  },
);

it("injected faults and the scenarios' refusals have the same shape", async () => {
  await emu.scenario("server-errors", { times: 1, status: 503 });
  const a = await getLogs(emu);
  expect(a.status).toBe(503);
  expect(a.body).toMatchObject({
    code: "SERVICE_UNAVAILABLE",
    message: (a.body as { error: string }).error,
  });
  emu.reset();
  emu.faults.add({ path: "/v2/teams", status: 500 });
  const b = await mgmt(emu, "GET", "/v2/teams");
  expect(b.body).toEqual({
    error: "injected fault (500)",
    code: "INTERNAL_SERVER_ERROR",
    message: "injected fault (500)",
  });
});

it("a rule's own body is sent as given (a consumer testing another shape keeps it)", async () => {
  emu.reset();
  emu.faults.add({ path: "/v2/teams", status: 500, body: { error: "only this" } });
  expect((await mgmt(emu, "GET", "/v2/teams")).body).toEqual({ error: "only this" });
});
