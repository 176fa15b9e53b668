import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator, EmulatorSnapshot } from "../../src/index.js";
import { getLogs, mgmt, raw, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 200 });
});
afterAll(() => emu.close());

const names = async (): Promise<string[]> =>
  ((await mgmt(emu, "GET", "/v2/redis/databases")).body as { database_name: string }[]).map(
    (d) => d.database_name,
  );

it("restores management state and appended logs from a snapshot", async () => {
  await mgmt(emu, "POST", "/v2/redis/database", { name: "kept", region: "us-east-1" });
  emu.logs.append([{ messageId: "msg_kept", state: "CREATED" }]);
  const snap = emu.snapshot();
  await mgmt(emu, "POST", "/v2/redis/database", { name: "dropped", region: "us-east-1" });
  emu.logs.append([{ messageId: "msg_dropped", state: "CREATED" }]);
  expect(await names()).toEqual(["kept", "dropped"]);
  emu.restore(JSON.parse(JSON.stringify(snap)) as EmulatorSnapshot);
  expect(await names()).toEqual(["kept"]);
  expect(emu.logs.size).toBe(201);
  expect(
    ((await getLogs(emu, { messageId: "msg_kept" })).body as { events: unknown[] }).events,
  ).toHaveLength(1);
  expect(
    ((await getLogs(emu, { messageId: "msg_dropped" })).body as { events: unknown[] }).events,
  ).toHaveLength(0);
});

it("does the same over the admin API, and reset goes back to the start", async () => {
  const snap = await raw(emu, "/__emulator/snapshot");
  expect(snap.status).toBe(200);
  expect((snap.body as EmulatorSnapshot).version).toBe(1);
  await mgmt(emu, "POST", "/v2/team", { team_name: "t", copy_cc: false });
  expect(
    (
      await raw(emu, "/__emulator/restore", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: snap.text,
      })
    ).text,
  ).toBe('"OK"');
  expect((await mgmt(emu, "GET", "/v2/teams")).body).toEqual([]);
  expect(await names()).toEqual(["kept"]);
  const bad = await raw(emu, "/__emulator/restore", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(bad.status).toBe(400);

  emu.faults.add({ status: 500, times: "always" });
  expect(
    (
      await raw(emu, "/__emulator/reset", {
        method: "POST",
        headers: { "content-type": "application/json" },
      })
    ).text,
  ).toBe('"OK"');
  expect(await names()).toEqual([]);
  expect(emu.logs.size).toBe(200);
  expect(emu.faults.size).toBe(0);
});

it("carries search indexes, QStash users (and their tokens) and the audit log", async () => {
  emu.reset();
  const created = await mgmt(emu, "POST", "/v2/search", {
    name: "kept",
    region: "eu-west-1",
    type: "free",
  });
  const [user] = (await mgmt(emu, "GET", "/v2/qstash/users")).body as {
    id: string;
    token: string;
  }[];
  const rotated = (await mgmt(emu, "POST", `/v2/qstash/rotate-token/${user!.id}`)).body as {
    token: string;
  };
  const snap = JSON.parse(JSON.stringify(emu.snapshot())) as EmulatorSnapshot;
  const audit = (await mgmt(emu, "GET", "/auditlogs")).body as unknown[];
  expect(audit).toHaveLength(2);

  await mgmt(emu, "DELETE", `/v2/search/${(created.body as { id: string }).id}`);
  await mgmt(emu, "POST", `/v2/qstash/rotate-token/${user!.id}`);
  emu.restore(snap);
  expect(((await mgmt(emu, "GET", "/v2/search")).body as { name: string }[])[0]?.name).toBe("kept");
  expect((await mgmt(emu, "GET", "/auditlogs")).body).toEqual(audit);
  expect((await getLogs(emu, {}, "/v2/logs", rotated.token)).status).toBe(200);

  // A snapshot of an earlier version (without the new parts): no search indexes, no audit entries,
  // and the QStash users of the start.
  const { searchIndexes, qstashUsers, auditLogs, ...older } = snap.management;
  expect([searchIndexes, qstashUsers, auditLogs].every(Array.isArray)).toBe(true);
  emu.restore({ ...snap, management: older });
  expect((await mgmt(emu, "GET", "/v2/search")).body).toEqual([]);
  expect((await mgmt(emu, "GET", "/auditlogs")).body).toEqual([]);
  expect((await getLogs(emu, {}, "/v2/logs", user!.token)).status).toBe(200);
  expect((await getLogs(emu, {}, "/v2/logs", rotated.token)).status).toBe(401);

  const bad = await raw(emu, "/__emulator/restore", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...snap, management: { ...snap.management, qstashUsers: {} } }),
  });
  expect(bad.status).toBe(400);
  expect(bad.text).toMatch(/management.qstashUsers: must be an array of objects/);
  const broken: [Record<string, unknown>, RegExp][] = [
    [{ qstashUsers: [{ owner: "x", record: { id: "1" } }] }, /qstashUsers\[0\].record.token: must/],
    [{ searchIndexes: [{ record: { id: "1" } }] }, /searchIndexes\[0\]: must be \{ owner/],
    [{ auditLogs: [{ customer_id: "x" }] }, /auditLogs\[0\]: must have/],
  ];
  for (const [part, message] of broken) {
    const management = { ...snap.management, ...part } as EmulatorSnapshot["management"];
    expect(() => emu.restore({ ...snap, management })).toThrow(message);
  }
  // Nothing changed: the token of the start still opens the logs API.
  expect((await getLogs(emu, {}, "/v2/logs", user!.token)).status).toBe(200);
});
