// The management client's documented reaction to the emulator's scenarios that reach it: a database
// deleted by someone else mid-way is a NotFoundError (never retried); a 5xx burst is retried on a
// read, waiting the Retry-After given, and not on a create (not safe to repeat).
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createManagementClient, InternalServerError, NotFoundError } from "../../src/index.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const events: { type: string; delayMs?: number }[] = [];
beforeEach(() => void (events.length = 0));
const client = () =>
  createManagementClient({
    email: emu.credentials.email,
    apiKey: emu.credentials.apiKey,
    baseUrl: emu.url,
    logger: (e) => void events.push(e as (typeof events)[number]),
  });

it("database-deleted: the next backups listing and read are NotFoundErrors, without retries", async () => {
  const m = client();
  const created = await m.databases.create({ name: "d", primary_region: "us-east-1" });
  const id = created.database_id as string;
  await m.backups.create(id, { name: "b" });
  expect(await m.backups.list(id)).toHaveLength(1);
  emu.scenario("database-deleted", { databaseId: id });
  await expect(m.backups.list(id)).rejects.toBeInstanceOf(NotFoundError);
  await expect(m.databases.get(id)).rejects.toBeInstanceOf(NotFoundError);
  expect(events.filter((e) => e.type === "retry")).toHaveLength(0);
});

it("server-errors: a read is retried after the Retry-After; a create fails with the 503", async () => {
  const m = client();
  emu.scenario("server-errors", { times: 2, retryAfter: 0.05, operationId: "listDatabases" });
  expect(await m.databases.list()).toEqual([]);
  expect(events.filter((e) => e.type === "retry").map((e) => e.delayMs)).toEqual([50, 50]);
  emu.scenario("server-errors", { times: 1, operationId: "createDatabase" });
  await expect(
    m.databases.create({ name: "d", primary_region: "us-east-1" }),
  ).rejects.toBeInstanceOf(InternalServerError);
  expect(await m.databases.list()).toEqual([]);
});
