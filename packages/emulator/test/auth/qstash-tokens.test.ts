// Every account starts with one QStash user per region, each with its own tokens; the logs API accepts
// them as Bearer tokens (besides the emulator's logs token) until they are rotated.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { ALICE, BOB, errorOf, getLogs, mgmt, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 50 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

type User = { id: string; region: string; token: string; read_only_token: string };
const users = async (account = ALICE): Promise<User[]> => {
  const a = await mgmt(emu, "GET", "/v2/qstash/users", undefined, account);
  expect(a.status, a.text).toBe(200);
  return a.body as User[];
};
const events = (a: { body: unknown }): unknown[] => (a.body as { events: unknown[] }).events;

it("gives every account a user in eu-central-1 and us-east-1, each with its own tokens", async () => {
  const all = [...(await users(ALICE)), ...(await users(BOB))];
  expect(all.map((u) => u.region).sort()).toEqual([
    "eu-central-1",
    "eu-central-1",
    "us-east-1",
    "us-east-1",
  ]);
  const tokens = all.flatMap((u) => [u.token, u.read_only_token]);
  expect(new Set(tokens).size).toBe(8);
});

it("accepts each user's token and read-only token on the logs API", async () => {
  const all = [...(await users(ALICE)), ...(await users(BOB))];
  for (const u of all) {
    for (const token of [u.token, u.read_only_token]) {
      const a = await getLogs(emu, { count: 5 }, "/v2/logs", token);
      expect(a.status, `${u.region}: ${a.text}`).toBe(200);
      expect(events(a)).toHaveLength(5);
    }
  }
  const wrong = await getLogs(emu, {}, "/v2/logs", "not-a-token");
  expect(wrong.status).toBe(401);
  expect(errorOf(wrong)).toMatch(/not valid/);
});

it("refuses a rotated token and accepts the new one; reset brings back the start's tokens", async () => {
  const [user] = await users();
  const rotated = await mgmt(emu, "POST", `/v2/qstash/rotate-token/${user!.id}`);
  expect(rotated.status, rotated.text).toBe(200);
  const next = rotated.body as User;
  expect((await getLogs(emu, {}, "/v2/logs", user!.token)).status).toBe(401);
  expect((await getLogs(emu, {}, "/v2/logs", user!.read_only_token)).status).toBe(401);
  expect((await getLogs(emu, {}, "/v2/events", next.token)).status).toBe(200);
  emu.reset();
  expect((await users())[0]?.token).toBe(user!.token);
  expect((await getLogs(emu, {}, "/v2/logs", user!.token)).status).toBe(200);
  expect((await getLogs(emu, {}, "/v2/logs", next.token)).status).toBe(401);
});
