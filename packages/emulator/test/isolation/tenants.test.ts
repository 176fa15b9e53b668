// One account cannot read, change or delete another's resources: they answer 404, as if missing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { ALICE, BOB, errorOf, mgmt, start } from "../helpers.js";

let emu: Emulator;
let dbId: string;
let backupId: string;
let teamId: string;
let indexId: string;
let bobDb: string;

beforeAll(async () => {
  emu = await start();
  dbId = (
    (await mgmt(emu, "POST", "/v2/redis/database", { name: "a", primary_region: "us-east-1" }))
      .body as { database_id: string }
  ).database_id;
  await mgmt(emu, "POST", `/v2/redis/create-backup/${dbId}`, { name: "b" });
  backupId = (
    (await mgmt(emu, "GET", `/v2/redis/list-backup/${dbId}`)).body as { backup_id: string }[]
  )[0]!.backup_id;
  teamId = (
    (await mgmt(emu, "POST", "/v2/team", { team_name: "t", copy_cc: false })).body as {
      team_id: string;
    }
  ).team_id;
  indexId = (
    (
      await mgmt(emu, "POST", "/v2/vector/index", {
        name: "i",
        region: "eu-west-1",
        similarity_function: "COSINE",
        dimension_count: 8,
      })
    ).body as { id: string }
  ).id;
  bobDb = (
    (await mgmt(emu, "POST", "/v2/redis/database", { name: "bob", region: "us-east-1" }, BOB))
      .body as { database_id: string }
  ).database_id;
});
afterAll(() => emu.close());

describe("bob against alice's resources", () => {
  it.each([
    ["GET", () => `/v2/redis/database/${dbId}`, undefined],
    ["DELETE", () => `/v2/redis/database/${dbId}`, undefined],
    ["GET", () => `/v2/redis/stats/${dbId}`, undefined],
    ["POST", () => `/v2/redis/rename/${dbId}`, { name: "pwned" }],
    ["POST", () => `/v2/redis/reset-password/${dbId}`, undefined],
    ["POST", () => `/v2/redis/enable-eviction/${dbId}`, undefined],
    ["PATCH", () => `/v2/redis/enable-dailybackup/${dbId}`, undefined],
    ["GET", () => `/v2/redis/list-backup/${dbId}`, undefined],
    ["DELETE", () => `/v2/redis/delete-backup/${dbId}/${backupId}`, undefined],
    ["POST", () => `/v2/redis/restore-backup/${dbId}`, { backup_id: "x" }],
    ["GET", () => `/v2/teams/${teamId}`, undefined],
    ["DELETE", () => `/v2/team/${teamId}`, undefined],
    ["GET", () => `/v2/vector/index/${indexId}`, undefined],
    ["DELETE", () => `/v2/vector/index/${indexId}`, undefined],
    ["POST", () => `/v2/vector/index/${indexId}/reset-password`, undefined],
  ] as const)("%s %s answers 404", async (method, path, body) => {
    const a = await mgmt(emu, method, path(), body, BOB);
    expect(a.status).toBe(404);
    expect(errorOf(a)).toMatch(/not found/);
  });

  it("cannot use alice's backup on his own database, nor move her database, nor join her team", async () => {
    expect(
      (await mgmt(emu, "POST", `/v2/redis/restore-backup/${bobDb}`, { backup_id: backupId }, BOB))
        .status,
    ).toBe(404);
    expect(
      (
        await mgmt(
          emu,
          "POST",
          "/v2/redis/move-to-team",
          { team_id: teamId, database_id: bobDb },
          BOB,
        )
      ).status,
    ).toBe(404);
    const join = await mgmt(
      emu,
      "POST",
      "/v2/teams/member",
      { team_id: teamId, member_email: BOB.email, member_role: "admin" },
      BOB,
    );
    expect(join.status).toBe(404);
  });

  it("lists only his own resources", async () => {
    expect(
      ((await mgmt(emu, "GET", "/v2/redis/databases", undefined, BOB)).body as unknown[]).map(
        (d) => (d as { database_id: string }).database_id,
      ),
    ).toEqual([bobDb]);
    expect((await mgmt(emu, "GET", "/v2/teams", undefined, BOB)).body).toEqual([]);
    expect((await mgmt(emu, "GET", "/v2/vector/index", undefined, BOB)).body).toEqual([]);
  });

  it("nothing of alice's changed", async () => {
    const db = (await mgmt(emu, "GET", `/v2/redis/database/${dbId}`, undefined, ALICE))
      .body as Record<string, unknown>;
    expect(db["database_name"]).toBe("a");
    expect(db["eviction"]).toBe(false);
    expect(
      (await mgmt(emu, "GET", `/v2/redis/list-backup/${dbId}`, undefined, ALICE)).body,
    ).toHaveLength(1);
  });

  it("sees a team's resources once he is a member, and a dev cannot manage members", async () => {
    await mgmt(
      emu,
      "POST",
      "/v2/teams/member",
      { team_id: teamId, member_email: BOB.email, member_role: "dev" },
      ALICE,
    );
    await mgmt(
      emu,
      "POST",
      `/v2/vector/index/${indexId}/transfer`,
      { target_account: teamId },
      ALICE,
    );
    expect((await mgmt(emu, "GET", `/v2/vector/index/${indexId}`, undefined, BOB)).status).toBe(
      200,
    );
    expect((await mgmt(emu, "GET", `/v2/redis/database/${dbId}`, undefined, BOB)).status).toBe(404);
    const add = await mgmt(
      emu,
      "POST",
      "/v2/teams/member",
      { team_id: teamId, member_email: "x@y.z", member_role: "dev" },
      BOB,
    );
    expect(add.status).toBe(403);
    expect(errorOf(add)).toMatch(/owner or admin/);
  });
});
