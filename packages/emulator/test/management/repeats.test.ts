// What a repeat does, per toggle: autoupgrade answers "already enabled/disabled" (the service's
// answer, which clients treat as success); eviction, TLS and daily backup simply succeed again.
// Backups report daily_backup and hourly_backup as strings, as the service does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { errorOf, mgmt, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

let db: string;
beforeEach(async () => {
  emu.reset();
  const a = await mgmt(emu, "POST", "/v2/redis/database", {
    database_name: "r",
    primary_region: "eu-west-1",
  });
  db = String((a.body as Record<string, unknown>)["database_id"]);
});
const get = async (): Promise<Record<string, unknown>> =>
  (await mgmt(emu, "GET", `/v2/redis/database/${db}`)).body as Record<string, unknown>;

describe("autoupgrade", () => {
  it.each([
    ["enable", "already enabled", true],
    ["disable", "already disabled", false],
  ] as const)(
    "%s twice: the second answer is 400 %s, and the state is as requested",
    async (verb, text, want) => {
      // A new database has auto upgrade off: get to the state before the one under test.
      if (verb === "disable") await mgmt(emu, "POST", `/v2/redis/enable-autoupgrade/${db}`);
      const first = await mgmt(emu, "POST", `/v2/redis/${verb}-autoupgrade/${db}`);
      expect([first.status, first.body]).toEqual([200, "OK"]);
      const second = await mgmt(emu, "POST", `/v2/redis/${verb}-autoupgrade/${db}`);
      expect(second.status).toBe(400);
      expect(errorOf(second)).toContain(text);
      expect((await get())["auto_upgrade"]).toBe(want);
    },
  );
});

describe("toggles whose repeat simply succeeds", () => {
  it.each([
    ["POST", "enable-eviction", "eviction", true],
    ["POST", "disable-eviction", "eviction", false],
    ["PATCH", "enable-dailybackup", "daily_backup_enabled", true],
    ["PATCH", "disable-dailybackup", "daily_backup_enabled", false],
  ] as const)("%s %s twice answers OK both times", async (method, path, field, want) => {
    for (let i = 0; i < 2; i++) {
      const a = await mgmt(emu, method, `/v2/redis/${path}/${db}`);
      expect([a.status, a.body]).toEqual([200, "OK"]);
    }
    expect((await get())[field]).toBe(want);
  });

  it("enable-tls twice returns the database with TLS on both times", async () => {
    for (let i = 0; i < 2; i++) {
      const a = await mgmt(emu, "POST", `/v2/redis/enable-tls/${db}`);
      expect(a.status, a.text).toBe(200);
      expect((a.body as Record<string, unknown>)["tls"]).toBe(true);
    }
  });
});

describe("backups", () => {
  it("carry daily_backup and hourly_backup as the strings the service sends", async () => {
    await mgmt(emu, "POST", `/v2/redis/create-backup/${db}`, { name: "b" });
    const [backup] = (await mgmt(emu, "GET", `/v2/redis/list-backup/${db}`)).body as Record<
      string,
      unknown
    >[];
    expect(backup).toMatchObject({
      daily_backup: "false",
      hourly_backup: "false",
      internal_backup_tag: expect.any(String),
      state: "completed",
    });
  });
});
