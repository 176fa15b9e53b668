// For every operation of the management spec: the happy path and at least one error path, over HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { operations } from "../../src/generated/operations.js";
import type { Emulator } from "../../src/index.js";
import { actionOf } from "../../src/internal/audit-log.js";
import { Router } from "../../src/internal/router.js";
import { ALICE, BOB, errorOf, mgmt as send, raw, start, type Answer } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

type Rec = Record<string, unknown>;

const router = new Router(operations);
/** Every successful write of the running test: who, and which operation. */
let writes: { actor: string; operationId: string }[] = [];
/** A management call, noting each successful write (the audit log must hold one entry per write). */
const mgmt: typeof send = async (emu, method, path, body, account = ALICE) => {
  const a = await send(emu, method, path, body, account);
  const route = router.match(method, path.split("?")[0] ?? "");
  if (method !== "GET" && a.status === 200 && route.kind === "match") {
    writes.push({ actor: account.email, operationId: route.op.operationId });
  }
  return a;
};
/** What the audit log holds, read by both accounts (a team's entries appear once). */
const audited = async (): Promise<{ actor: string; action: string }[]> => {
  const seen = new Map<string, Rec>();
  for (const who of [ALICE, BOB]) {
    const list = await send(emu, "GET", "/auditlogs", undefined, who);
    expect(list.status, list.text).toBe(200);
    for (const e of list.body as Rec[]) seen.set(String(e["log_id"]), e);
  }
  return [...seen.values()].map((e) => ({
    actor: String(e["actor"]),
    action: String(e["action_string"]),
  }));
};
const ok = (a: Answer): Rec => {
  expect(a.status, a.text).toBe(200);
  return a.body as Rec;
};
const ack = (a: Answer): void => {
  expect(a.status, a.text).toBe(200);
  expect(a.text).toBe('"OK"');
};
const fails = (a: Answer, status: number, message: RegExp): void => {
  expect(a.status, a.text).toBe(status);
  expect(errorOf(a)).toMatch(message);
};

const globalDb = async (): Promise<Rec> =>
  ok(
    await mgmt(emu, "POST", "/v2/redis/database", {
      name: "g",
      primary_region: "us-east-1",
      read_regions: ["eu-west-1"],
    }),
  );
const regionalDb = async (): Promise<Rec> =>
  ok(
    await mgmt(emu, "POST", "/v2/redis/database", { name: "r", region: "eu-central-1", tls: true }),
  );
const db = async (): Promise<string> => String((await globalDb())["database_id"]);
const team = async (): Promise<string> =>
  String(ok(await mgmt(emu, "POST", "/v2/team", { team_name: "t", copy_cc: false }))["team_id"]);
const index = async (): Promise<string> =>
  String(
    ok(
      await mgmt(emu, "POST", "/v2/vector/index", {
        name: "i",
        region: "us-east-1",
        similarity_function: "EUCLIDIAN",
        dimension_count: 384,
        type: "payg",
        embedding_model: "BGE_SMALL_EN_V1_5",
      }),
    )["id"],
  );
const backup = async (id: string): Promise<string> => {
  ack(await mgmt(emu, "POST", `/v2/redis/create-backup/${id}`, { name: "b" }));
  const list = ok(await mgmt(emu, "GET", `/v2/redis/list-backup/${id}`)) as unknown as Rec[];
  return String(list[0]?.["backup_id"]);
};
const search = async (type = "free"): Promise<string> =>
  String(
    ok(await mgmt(emu, "POST", "/v2/search", { name: "s", region: "us-central1", type }))["id"],
  );
/** Alice's QStash user in `eu-central-1` (every account starts with one per region). */
const qstash = async (): Promise<string> =>
  String(
    (ok(await mgmt(emu, "GET", "/v2/qstash/users")) as unknown as Rec[]).find(
      (u) => u["region"] === "eu-central-1",
    )?.["id"],
  );
const getDb = async (id: string, query = ""): Promise<Rec> =>
  ok(await mgmt(emu, "GET", `/v2/redis/database/${id}${query}`));
const getIndex = async (id: string): Promise<Rec> =>
  ok(await mgmt(emu, "GET", `/v2/vector/index/${id}`));
const MISSING = "00000000-0000-0000-0000-000000000000";

const flag = (op: string, path: string, field: string, value: boolean) =>
  [
    op,
    async () => {
      const id = await db();
      ack(
        await mgmt(
          emu,
          path.startsWith("PATCH") ? "PATCH" : "POST",
          `/v2/redis/${path.split(" ").pop()}/${id}`,
        ),
      );
      expect((await getDb(id))[field]).toBe(value);
    },
    async () =>
      fails(
        await mgmt(
          emu,
          path.startsWith("PATCH") ? "PATCH" : "POST",
          `/v2/redis/${path.split(" ").pop()}/${MISSING}`,
        ),
        404,
        /not found/,
      ),
  ] as const;

const cases: (readonly [string, () => Promise<void>, () => Promise<void>])[] = [
  [
    "createDatabase",
    async () => {
      const g = await globalDb();
      expect(g).toMatchObject({
        database_name: "g",
        region: "global",
        primary_region: "us-east-1",
        read_regions: ["eu-west-1"],
      });
      for (const f of ["database_id", "endpoint", "password", "rest_token", "read_only_rest_token"])
        expect(g[f]).toBeTruthy();
      expect(await regionalDb()).toMatchObject({
        region: "eu-central-1",
        tls: true,
        read_regions: [],
      });
      // The current spelling, and fields the spec does not list pass (the service may know them).
      expect(
        ok(
          await mgmt(emu, "POST", "/v2/redis/database", {
            database_name: "current",
            primary_region: "us-central1",
            colour: 1,
          }),
        ),
      ).toMatchObject({ database_name: "current", primary_region: "us-central1" });
    },
    async () => {
      fails(await mgmt(emu, "POST", "/v2/redis/database", {}), 400, /^database_name: is required/);
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", { name: "x", tls: "yes" }),
        400,
        /^tls: must be a boolean/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", { name: "x", primary_region: "mars-1" }),
        400,
        /^primary_region: must be one of "us-east-1"/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", {
          database_name: "x",
          platform: "aws",
          primary_region: "us-central1",
        }),
        400,
        /^platform: us-central1 is a gcp region/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", {
          database_name: "x",
          primary_region: "us-east-1",
          read_regions: ["us-east-1"],
        }),
        400,
        /^read_regions: must not include the primary region/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", {
          database_name: "x",
          primary_region: "us-east-1",
          budget: 1.5,
        }),
        400,
        /^budget: must be an integer/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", {
          database_name: "x",
          primary_region: "us-east-1",
          plan: "gold",
        }),
        400,
        /^plan: must be one of "free"/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", { name: "x" }),
        400,
        /primary_region: is required for a global/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/database", {
          name: "x",
          region: "eu-west-1",
          read_regions: ["us-east-1"],
        }),
        400,
        /read_regions: only a global database/,
      );
    },
  ],
  [
    "getDatabase",
    async () => {
      const id = await db();
      expect((await getDb(id))["password"]).not.toBe("***");
      expect(await getDb(id, "?credentials=hide")).toMatchObject({
        password: "***",
        rest_token: "***",
        read_only_rest_token: "***",
      });
    },
    async () => {
      fails(await mgmt(emu, "GET", `/v2/redis/database/${MISSING}`), 404, /not found/);
      fails(
        await mgmt(emu, "GET", `/v2/redis/database/${await db()}?credentials=show`),
        400,
        /^credentials: must be one of "hide"/,
      );
    },
  ],
  [
    "deleteDatabase",
    async () => {
      const id = await db();
      ack(await mgmt(emu, "DELETE", `/v2/redis/database/${id}`));
      fails(await mgmt(emu, "GET", `/v2/redis/database/${id}`), 404, /not found/);
    },
    async () => fails(await mgmt(emu, "DELETE", `/v2/redis/database/${MISSING}`), 404, /not found/),
  ],
  [
    "listDatabases",
    async () => {
      await db();
      await regionalDb();
      expect(ok(await mgmt(emu, "GET", "/v2/redis/databases"))).toHaveLength(2);
    },
    async () =>
      fails(
        await mgmt(emu, "GET", "/v2/redis/databases", undefined, { ...ALICE, apiKey: "bad" }),
        401,
        /not valid/,
      ),
  ],
  [
    "getDatabaseStats",
    async () => {
      const s = ok(await mgmt(emu, "GET", `/v2/redis/stats/${await db()}`));
      expect((s["throughput"] as unknown[]).length).toBeGreaterThan(0);
      expect(s["throughput"]).toEqual(
        expect.arrayContaining([{ x: expect.any(String), y: expect.any(Number) }]),
      );
      expect(s).toMatchObject({
        total_monthly_requests: expect.any(Number),
        days: expect.any(Array),
      });
    },
    async () => fails(await mgmt(emu, "GET", `/v2/redis/stats/${MISSING}`), 404, /not found/),
  ],
  [
    "renameDatabase",
    async () => {
      const id = await db();
      expect(
        ok(await mgmt(emu, "POST", `/v2/redis/rename/${id}`, { name: "renamed" }))["database_name"],
      ).toBe("renamed");
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/redis/rename/${await db()}`, { name: 5 }),
        400,
        /^name: must be a string/,
      ),
  ],
  [
    "resetDatabasePassword",
    async () => {
      const before = await globalDb();
      const after = ok(
        await mgmt(emu, "POST", `/v2/redis/reset-password/${String(before["database_id"])}`),
      );
      expect(after["password"]).not.toBe(before["password"]);
      expect(after["rest_token"]).not.toBe(before["rest_token"]);
    },
    async () =>
      fails(await mgmt(emu, "POST", `/v2/redis/reset-password/${MISSING}`), 404, /not found/),
  ],
  [
    "enableDatabaseTls",
    async () => {
      const id = await db();
      expect(ok(await mgmt(emu, "POST", `/v2/redis/enable-tls/${id}`))["tls"]).toBe(true);
    },
    async () =>
      fails(await mgmt(emu, "GET", `/v2/redis/enable-tls/${MISSING}`), 405, /not allowed/),
  ],
  flag("enableDatabaseEviction", "POST enable-eviction", "eviction", true),
  flag("disableDatabaseEviction", "POST disable-eviction", "eviction", false),
  [
    "enableDatabaseAutoUpgrade",
    async () => {
      const id = await db();
      ack(await mgmt(emu, "POST", `/v2/redis/enable-autoupgrade/${id}`));
      expect((await getDb(id))["auto_upgrade"]).toBe(true);
    },
    async () => {
      // Already enabled: the service answers an error naming the state (clients resolve on it).
      const id = await db();
      ack(await mgmt(emu, "POST", `/v2/redis/enable-autoupgrade/${id}`));
      fails(await mgmt(emu, "POST", `/v2/redis/enable-autoupgrade/${id}`), 400, /already enabled/);
      fails(await mgmt(emu, "POST", `/v2/redis/enable-autoupgrade/${MISSING}`), 404, /not found/);
    },
  ],
  [
    "disableDatabaseAutoUpgrade",
    async () => {
      const id = await db();
      ack(await mgmt(emu, "POST", `/v2/redis/enable-autoupgrade/${id}`));
      ack(await mgmt(emu, "POST", `/v2/redis/disable-autoupgrade/${id}`));
      expect((await getDb(id))["auto_upgrade"]).toBe(false);
    },
    async () => {
      // A new database has auto upgrade off: disabling it is "already disabled".
      fails(
        await mgmt(emu, "POST", `/v2/redis/disable-autoupgrade/${await db()}`),
        400,
        /already disabled/,
      );
    },
  ],
  flag("enableDailyBackup", "PATCH enable-dailybackup", "daily_backup_enabled", true),
  flag("disableDailyBackup", "PATCH disable-dailybackup", "daily_backup_enabled", false),
  [
    "updateDatabaseRegions",
    async () => {
      const id = await db();
      ack(
        await mgmt(emu, "POST", `/v2/redis/update-regions/${id}`, {
          read_regions: ["us-west-1", "sa-east-1"],
        }),
      );
      expect((await getDb(id))["read_regions"]).toEqual(["us-west-1", "sa-east-1"]);
    },
    async () => {
      const regional = String((await regionalDb())["database_id"]);
      fails(
        await mgmt(emu, "POST", `/v2/redis/update-regions/${regional}`, {
          read_regions: ["us-west-1"],
        }),
        400,
        /regional/,
      );
      fails(
        await mgmt(emu, "POST", `/v2/redis/update-regions/${await db()}`, {
          read_regions: ["mars-1"],
        }),
        400,
        /^read_regions\[0\]: must be one of "us-east-1"/,
      );
      fails(
        await mgmt(emu, "POST", `/v2/redis/update-regions/${await db()}`, {
          read_regions: ["us-east-1"],
        }),
        400,
        /must not include the primary region us-east-1/,
      );
    },
  ],
  [
    "moveDatabaseToTeam",
    async () => {
      const [id, t] = [await db(), await team()];
      ack(await mgmt(emu, "POST", "/v2/redis/move-to-team", { team_id: t, database_id: id }));
      ok(
        await mgmt(emu, "POST", "/v2/teams/member", {
          team_id: t,
          member_email: BOB.email,
          member_role: "dev",
        }),
      );
      expect(
        ok(await mgmt(emu, "GET", `/v2/redis/database/${id}`, undefined, BOB))["database_id"],
      ).toBe(id);
    },
    async () => {
      fails(
        await mgmt(emu, "POST", "/v2/redis/move-to-team", {
          team_id: MISSING,
          database_id: await db(),
        }),
        404,
        /team/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/redis/move-to-team", { database_id: "x" }),
        400,
        /^team_id: is required/,
      );
    },
  ],
  [
    "createBackup",
    async () => {
      const id = await db();
      expect(await backup(id)).toBeTruthy();
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/redis/create-backup/${await db()}`),
        400,
        /^body: is required/,
      ),
  ],
  [
    "deleteBackup",
    async () => {
      const id = await db();
      const b = await backup(id);
      ack(await mgmt(emu, "DELETE", `/v2/redis/delete-backup/${id}/${b}`));
      expect(ok(await mgmt(emu, "GET", `/v2/redis/list-backup/${id}`))).toEqual([]);
    },
    async () => {
      const [a, b] = [await db(), await db()];
      const backupOfA = await backup(a);
      fails(
        await mgmt(emu, "DELETE", `/v2/redis/delete-backup/${b}/${backupOfA}`),
        404,
        /not found/,
      );
    },
  ],
  [
    "listBackups",
    async () => {
      const id = await db();
      await backup(id);
      expect(ok(await mgmt(emu, "GET", `/v2/redis/list-backup/${id}`))).toEqual([
        expect.objectContaining({
          database_id: id,
          name: "b",
          state: "completed",
          backup_id: expect.any(String),
        }),
      ]);
    },
    async () => fails(await mgmt(emu, "GET", `/v2/redis/list-backup/${MISSING}`), 404, /not found/),
  ],
  [
    "restoreBackup",
    async () => {
      const id = await db();
      ack(
        await mgmt(emu, "POST", `/v2/redis/restore-backup/${id}`, { backup_id: await backup(id) }),
      );
    },
    async () => {
      const [a, b] = [await db(), await db()];
      const backupOfA = await backup(a);
      fails(
        await mgmt(emu, "POST", `/v2/redis/restore-backup/${b}`, { backup_id: backupOfA }),
        400,
        /belongs to database/,
      );
      fails(
        await mgmt(emu, "POST", `/v2/redis/restore-backup/${b}`, { backup_id: MISSING }),
        404,
        /not found/,
      );
    },
  ],
  [
    "createTeam",
    async () => {
      const t = ok(await mgmt(emu, "POST", "/v2/team", { team_name: "ops", copy_cc: true }));
      expect(t).toMatchObject({ team_name: "ops", copy_cc: true, team_id: expect.any(String) });
    },
    async () =>
      fails(
        await mgmt(emu, "POST", "/v2/team", { team_name: "ops" }),
        400,
        /^copy_cc: is required/,
      ),
  ],
  [
    "deleteTeam",
    async () => {
      const t = await team();
      ack(await mgmt(emu, "DELETE", `/v2/team/${t}`));
      expect(ok(await mgmt(emu, "GET", "/v2/teams"))).toEqual([]);
    },
    async () => {
      fails(await mgmt(emu, "DELETE", `/v2/team/${MISSING}`), 404, /not found/);
      const t = await team();
      ack(
        await mgmt(emu, "POST", "/v2/redis/move-to-team", { team_id: t, database_id: await db() }),
      );
      fails(await mgmt(emu, "DELETE", `/v2/team/${t}`), 400, /still owns 1 database/);
    },
  ],
  [
    "listTeams",
    async () => {
      const t = await team();
      expect(ok(await mgmt(emu, "GET", "/v2/teams"))).toEqual([
        { team_id: t, team_name: "t", copy_cc: false, member_role: "owner" },
      ]);
    },
    async () => fails(await mgmt(emu, "POST", "/v2/teams"), 405, /not allowed/),
  ],
  [
    "listTeamMembers",
    async () => {
      const t = await team();
      expect(ok(await mgmt(emu, "GET", `/v2/teams/${t}`))).toEqual([
        {
          team_id: t,
          team_name: "t",
          member_email: ALICE.email,
          member_role: "owner",
          copy_cc: false,
        },
      ]);
    },
    async () => fails(await mgmt(emu, "GET", `/v2/teams/${MISSING}`), 404, /not found/),
  ],
  [
    "addTeamMember",
    async () => {
      const t = await team();
      const m = ok(
        await mgmt(emu, "POST", "/v2/teams/member", {
          team_id: t,
          member_email: "c@x.io",
          member_role: "admin",
        }),
      );
      expect(m).toEqual({
        team_id: t,
        team_name: "t",
        member_email: "c@x.io",
        member_role: "admin",
        copy_cc: false,
      });
    },
    async () => {
      const t = await team();
      const body = { team_id: t, member_email: "c@x.io", member_role: "dev" };
      ok(await mgmt(emu, "POST", "/v2/teams/member", body));
      fails(await mgmt(emu, "POST", "/v2/teams/member", body), 409, /already a member/);
      fails(
        await mgmt(emu, "POST", "/v2/teams/member", { ...body, member_role: "owner" }),
        400,
        /^member_role: must be one of/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/teams/member", { ...body, team_id: MISSING }),
        404,
        /not found/,
      );
    },
  ],
  [
    "removeTeamMember",
    async () => {
      const t = await team();
      ok(
        await mgmt(emu, "POST", "/v2/teams/member", {
          team_id: t,
          member_email: "c@x.io",
          member_role: "dev",
        }),
      );
      ack(await mgmt(emu, "DELETE", "/v2/teams/member", { team_id: t, member_email: "c@x.io" }));
      expect(ok(await mgmt(emu, "GET", `/v2/teams/${t}`))).toHaveLength(1);
    },
    async () => {
      const t = await team();
      fails(
        await mgmt(emu, "DELETE", "/v2/teams/member", { team_id: t, member_email: "nobody@x.io" }),
        404,
        /not a member/,
      );
      fails(
        await mgmt(emu, "DELETE", "/v2/teams/member", { team_id: t, member_email: ALICE.email }),
        400,
        /owner/,
      );
    },
  ],
  [
    "createVectorIndex",
    async () => {
      const i = await getIndex(await index());
      expect(i).toMatchObject({
        name: "i",
        similarity_function: "EUCLIDEAN",
        dimension_count: 384,
        type: "payg",
        region: "us-east-1",
      });
      expect(i["token"]).toBeTruthy();
      expect(i["read_only_token"]).toBeTruthy();
    },
    async () =>
      fails(
        await mgmt(emu, "POST", "/v2/vector/index", {
          name: "i",
          region: "us-east-1",
          similarity_function: "COSINE",
          dimension_count: "384",
        }),
        400,
        /^dimension_count: must be a number/,
      ),
  ],
  [
    "listVectorIndexes",
    async () => {
      await index();
      expect(ok(await mgmt(emu, "GET", "/v2/vector/index"))).toHaveLength(1);
    },
    async () => fails(await mgmt(emu, "PUT", "/v2/vector/index"), 405, /not allowed/),
  ],
  [
    "getVectorIndex",
    async () => expect((await getIndex(await index()))["index_type"]).toBe("DENSE"),
    async () => fails(await mgmt(emu, "GET", `/v2/vector/index/${MISSING}`), 404, /not found/),
  ],
  [
    "deleteVectorIndex",
    async () => {
      const id = await index();
      ack(await mgmt(emu, "DELETE", `/v2/vector/index/${id}`));
      fails(await mgmt(emu, "GET", `/v2/vector/index/${id}`), 404, /not found/);
    },
    async () => fails(await mgmt(emu, "DELETE", `/v2/vector/index/${MISSING}`), 404, /not found/),
  ],
  [
    "renameVectorIndex",
    async () => {
      const id = await index();
      ack(await mgmt(emu, "POST", `/v2/vector/index/${id}/rename`, { name: "new" }));
      expect((await getIndex(id))["name"]).toBe("new");
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/vector/index/${await index()}/rename`, { name: 5 }),
        400,
        /^name: must be a string/,
      ),
  ],
  [
    "resetVectorIndexTokens",
    async () => {
      const id = await index();
      const before = await getIndex(id);
      ack(await mgmt(emu, "POST", `/v2/vector/index/${id}/reset-password`));
      const after = await getIndex(id);
      expect(after["token"]).not.toBe(before["token"]);
      expect(after["read_only_token"]).not.toBe(before["read_only_token"]);
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/vector/index/${MISSING}/reset-password`),
        404,
        /not found/,
      ),
  ],
  [
    "setVectorIndexPlan",
    async () => {
      const id = await index();
      ack(await mgmt(emu, "POST", `/v2/vector/index/${id}/setplan`, { target_plan: "fixed" }));
      expect((await getIndex(id))["type"]).toBe("fixed");
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/vector/index/${await index()}/setplan`, {
          target_plan: "gold",
        }),
        400,
        /^target_plan: must be one of "free", "payg", "fixed"/,
      ),
  ],
  [
    "transferVectorIndex",
    async () => {
      const [id, t] = [await index(), await team()];
      ack(await mgmt(emu, "POST", `/v2/vector/index/${id}/transfer`, { target_account: t }));
      ok(
        await mgmt(emu, "POST", "/v2/teams/member", {
          team_id: t,
          member_email: BOB.email,
          member_role: "dev",
        }),
      );
      expect(ok(await mgmt(emu, "GET", `/v2/vector/index/${id}`, undefined, BOB))["id"]).toBe(id);
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/vector/index/${await index()}/transfer`, {
          target_account: MISSING,
        }),
        404,
        /not found/,
      ),
  ],
  [
    "changePlan",
    async () => {
      const id = await db();
      expect(await getDb(id)).toMatchObject({ type: "payg", auto_upgrade: false });
      ack(
        await mgmt(emu, "POST", `/v2/redis/${id}/change-plan`, {
          plan_name: "fixed_5gb",
          database_id: id,
          auto_upgrade: true,
          prod_pack_enabled: true,
        }),
      );
      // The next read shows the new plan.
      expect(await getDb(id)).toMatchObject({
        type: "paid",
        database_type: "Fixed",
        db_disk_threshold: 5_368_709_120,
        auto_upgrade: true,
        prod_pack_enabled: true,
      });
      ack(await mgmt(emu, "POST", `/v2/redis/${id}/change-plan`, { plan_name: "free" }));
      expect(await getDb(id)).toMatchObject({ type: "free", auto_upgrade: true });
    },
    async () => {
      const id = await db();
      fails(
        await mgmt(emu, "POST", `/v2/redis/${id}/change-plan`, { plan_name: "gold" }),
        400,
        /^plan_name: must be one of "free"/,
      );
      fails(
        await mgmt(emu, "POST", `/v2/redis/${id}/change-plan`, {
          plan_name: "free",
          database_id: MISSING,
        }),
        400,
        /^database_id: repeats the path's id/,
      );
      fails(
        await mgmt(emu, "POST", `/v2/redis/${MISSING}/change-plan`, { plan_name: "free" }),
        404,
        /not found/,
      );
    },
  ],
  [
    "updateBudget",
    async () => {
      const id = await db();
      ack(await mgmt(emu, "PATCH", `/v2/redis/update-budget/${id}`, { budget: 1250 }));
      expect((await getDb(id))["budget"]).toBe(1250);
      ack(await mgmt(emu, "PATCH", `/v2/redis/update-budget/${id}`, { budget: 1250 }));
      expect((await getDb(id))["budget"]).toBe(1250);
    },
    async () =>
      fails(
        await mgmt(emu, "PATCH", `/v2/redis/update-budget/${await db()}`, { budget: 1.5 }),
        400,
        /^budget: must be an integer/,
      ),
  ],
  [
    "listAuditLogs",
    async () => {
      const id = await db();
      ack(await mgmt(emu, "POST", `/v2/redis/enable-eviction/${id}`));
      const entries = ok(await mgmt(emu, "GET", "/auditlogs")) as unknown as Rec[];
      expect(entries.map((e) => e["action_string"])).toEqual([
        "Enable Eviction",
        "Create Database",
      ]);
      expect(entries[0]).toMatchObject({
        customer_id: ALICE.email,
        actor: ALICE.email,
        entity: id,
        timestamp: expect.any(Number),
        action: expect.any(Number),
        ip: "127.0.0.1",
      });
      // Another account's log is its own.
      expect(ok(await mgmt(emu, "GET", "/auditlogs", undefined, BOB))).toEqual([]);
    },
    async () =>
      fails(
        await mgmt(emu, "GET", "/auditlogs", undefined, { ...ALICE, apiKey: "bad" }),
        401,
        /not valid/,
      ),
  ],
  [
    "getGlobalVectorStats",
    async () => {
      const empty = ok(await mgmt(emu, "GET", "/v2/vector/index/stats"));
      expect(empty).toEqual({
        record_count: 0,
        request: 0,
        bandwidth: 0,
        storage: 0,
        billing: 0,
        rerank_count: 0,
      });
      const [a, b] = [await index(), await index()];
      const totals = ok(await mgmt(emu, "GET", "/v2/vector/index/stats"));
      const counts = await Promise.all(
        [a, b].map(
          async (id) =>
            ok(await mgmt(emu, "GET", `/v2/vector/index/${id}/stats`))["current_vector_count"],
        ),
      );
      expect(totals["record_count"]).toBe((counts[0] as number) + (counts[1] as number));
      expect(totals["storage"]).toBeGreaterThan(0);
    },
    async () => fails(await mgmt(emu, "POST", "/v2/vector/index/stats"), 405, /not allowed/),
  ],
  [
    "getVectorIndexStats",
    async () => {
      const id = await index();
      const hour = ok(await mgmt(emu, "GET", `/v2/vector/index/${id}/stats`));
      expect(hour["query_latency_mean"]).toHaveLength(60);
      expect((hour["vector_count"] as { y: number }[]).at(-1)?.y).toBe(
        hour["current_vector_count"],
      );
      expect(hour["days"]).toHaveLength(7);
      expect(hour["daily_query_requests"]).toHaveLength(7);
      const month = ok(await mgmt(emu, "GET", `/v2/vector/index/${id}/stats?period=30d`));
      const series = month["query_throughput"] as { x: string; y: number }[];
      expect(series).toHaveLength(240);
      // 3 hours apart, in the service's Go-style time text.
      expect(series[0]?.x).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC$/);
      const t = (p: { x: string } | undefined) =>
        Date.parse(String(p?.x).replace(" +0000 UTC", "Z"));
      expect(t(series[1]) - t(series[0])).toBe(3 * 3_600_000);
    },
    async () => {
      fails(
        await mgmt(emu, "GET", `/v2/vector/index/${await index()}/stats?period=2w`),
        400,
        /^period: must be one of "1h"/,
      );
      fails(await mgmt(emu, "GET", `/v2/vector/index/${MISSING}/stats`), 404, /not found/);
    },
  ],
  [
    "listSearchIndexes",
    async () => {
      await search();
      await search("payg");
      const list = ok(await mgmt(emu, "GET", "/v2/search")) as unknown as Rec[];
      expect(list.map((i) => i["type"]).sort()).toEqual(["free", "payg"]);
      expect(ok(await mgmt(emu, "GET", "/v2/search", undefined, BOB))).toEqual([]);
    },
    async () => fails(await mgmt(emu, "DELETE", "/v2/search"), 405, /not allowed/),
  ],
  [
    "createSearchIndex",
    async () => {
      const created = ok(
        await mgmt(emu, "POST", "/v2/search", { name: "docs", region: "eu-west-1", type: "free" }),
      );
      expect(created).toMatchObject({
        name: "docs",
        region: "eu-west-1",
        type: "free",
        customer_id: ALICE.email,
        vercel_email: "",
        max_vector_count: 10_000,
        input_enrichment_enabled: false,
      });
      for (const f of ["id", "endpoint", "token", "read_only_token"])
        expect(created[f]).toBeTruthy();
      expect(created["throughput_vector"]).toHaveLength(60);
      // Not idempotent: a repeat creates a second index.
      await search();
      expect(ok(await mgmt(emu, "GET", "/v2/search"))).toHaveLength(2);
    },
    async () => {
      fails(
        await mgmt(emu, "POST", "/v2/search", { name: "x", region: "eu-west-1", type: "fixed" }),
        400,
        /^type: a search index can be created on free or payg/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/search", { name: "x", region: "mars-1", type: "free" }),
        400,
        /^region: must be one of "eu-west-1"/,
      );
      fails(await mgmt(emu, "POST", "/v2/search", { name: "x" }), 400, /^region: is required/);
    },
  ],
  [
    "getSearchIndex",
    async () => {
      const id = await search();
      expect(ok(await mgmt(emu, "GET", `/v2/search/${id}`))).toMatchObject({ id, name: "s" });
    },
    async () => {
      fails(await mgmt(emu, "GET", `/v2/search/${MISSING}`), 404, /not found/);
      fails(
        await mgmt(emu, "GET", `/v2/search/${await search()}`, undefined, BOB),
        404,
        /not found/,
      );
    },
  ],
  [
    "deleteSearchIndex",
    async () => {
      const id = await search();
      ack(await mgmt(emu, "DELETE", `/v2/search/${id}`));
      fails(await mgmt(emu, "GET", `/v2/search/${id}`), 404, /not found/);
    },
    async () => fails(await mgmt(emu, "DELETE", `/v2/search/${MISSING}`), 404, /not found/),
  ],
  [
    "getGlobalSearchStats",
    async () => {
      expect(ok(await mgmt(emu, "GET", "/v2/search/stats"))["record_count"]).toBe(0);
      const id = await search();
      const one = ok(await mgmt(emu, "GET", `/v2/search/${id}/stats`));
      expect(ok(await mgmt(emu, "GET", "/v2/search/stats"))).toMatchObject({
        record_count: one["current_vector_count"],
        storage: one["storage_usage"],
        billing: one["monthly_cost"],
      });
    },
    async () =>
      fails(
        await mgmt(emu, "GET", "/v2/search/stats", undefined, { ...BOB, apiKey: "bad" }),
        401,
        /not valid/,
      ),
  ],
  [
    "getSearchIndexStats",
    async () => {
      const s = ok(await mgmt(emu, "GET", `/v2/search/${await search()}/stats?period=7d`));
      expect(s["update_latency_99"]).toHaveLength(60);
      expect(s).toMatchObject({
        monthly_query_count: expect.any(Number),
        pending_index_count: expect.any(Number),
      });
    },
    async () => fails(await mgmt(emu, "GET", `/v2/search/${MISSING}/stats`), 404, /not found/),
  ],
  [
    "resetSearchPassword",
    async () => {
      const id = await search();
      const before = ok(await mgmt(emu, "GET", `/v2/search/${id}`));
      ack(await mgmt(emu, "POST", `/v2/search/${id}/reset-password`));
      const after = ok(await mgmt(emu, "GET", `/v2/search/${id}`));
      expect(after["token"]).not.toBe(before["token"]);
      expect(after["read_only_token"]).not.toBe(before["read_only_token"]);
    },
    async () =>
      fails(await mgmt(emu, "POST", `/v2/search/${MISSING}/reset-password`), 404, /not found/),
  ],
  [
    "transferSearchIndex",
    async () => {
      const [id, t] = [await search(), await team()];
      ack(await mgmt(emu, "POST", `/v2/search/${id}/transfer`, { target_account: t }));
      expect(ok(await mgmt(emu, "GET", `/v2/search/${id}`))["customer_id"]).toBe(t);
      ok(
        await mgmt(emu, "POST", "/v2/teams/member", {
          team_id: t,
          member_email: BOB.email,
          member_role: "dev",
        }),
      );
      expect(ok(await mgmt(emu, "GET", `/v2/search/${id}`, undefined, BOB))["id"]).toBe(id);
    },
    async () => {
      const id = await search();
      fails(
        await mgmt(emu, "POST", `/v2/search/${id}/transfer`, { target_account: BOB.email }),
        400,
        /^target_account: a search index moves only into a team/,
      );
      fails(
        await mgmt(emu, "POST", `/v2/search/${id}/transfer`, { target_account: MISSING }),
        404,
        /not found/,
      );
    },
  ],
  [
    "renameSearchIndex",
    async () => {
      const id = await search();
      ack(await mgmt(emu, "POST", `/v2/search/${id}/rename`, { name: "renamed" }));
      expect(ok(await mgmt(emu, "GET", `/v2/search/${id}`))["name"]).toBe("renamed");
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/search/${await search()}/rename`, { name: 5 }),
        400,
        /^name: must be a string/,
      ),
  ],
  [
    "listQStashUsers",
    async () => {
      const users = ok(await mgmt(emu, "GET", "/v2/qstash/users")) as unknown as Rec[];
      // One per region from the start, each with its own token.
      expect(users.map((u) => u["region"]).sort()).toEqual(["eu-central-1", "us-east-1"]);
      expect(new Set(users.map((u) => u["token"])).size).toBe(2);
      const bobs = ok(
        await mgmt(emu, "GET", "/v2/qstash/users", undefined, BOB),
      ) as unknown as Rec[];
      expect(bobs.map((u) => u["customer_id"])).toEqual([BOB.email, BOB.email]);
    },
    async () =>
      fails(
        await mgmt(emu, "GET", "/v2/qstash/users", undefined, { ...ALICE, apiKey: "x" }),
        401,
        /not valid/,
      ),
  ],
  [
    "getQStashUser",
    async () => {
      const id = await qstash();
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))).toMatchObject({
        id,
        customer_id: ALICE.email,
        state: "active",
        type: "free",
        prometheus_enabled: "false",
        max_requests_per_day: 1000,
        deletion_time: 0,
      });
    },
    async () => {
      fails(await mgmt(emu, "GET", `/v2/qstash/user/${MISSING}`), 404, /not found/);
      fails(
        await mgmt(emu, "GET", `/v2/qstash/user/${await qstash()}`, undefined, BOB),
        404,
        /not found/,
      );
    },
  ],
  [
    "resetQStashToken",
    async () => {
      const id = await qstash();
      const before = ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`));
      const rotated = ok(await mgmt(emu, "POST", `/v2/qstash/rotate-token/${id}`));
      expect(rotated["id"]).toBe(id);
      expect(rotated["token"]).not.toBe(before["token"]);
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))["token"]).toBe(rotated["token"]);
    },
    async () =>
      fails(await mgmt(emu, "POST", `/v2/qstash/rotate-token/${MISSING}`), 404, /not found/),
  ],
  [
    "setQStashPlan",
    async () => {
      const id = await qstash();
      ack(await mgmt(emu, "POST", `/v2/qstash/set-plan/${id}`, { plan_name: "qstash_fixed_10m" }));
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))).toMatchObject({
        type: "paid",
        reserved_type: "qstash_fixed_10m",
        max_requests_per_day: 10_000_000,
      });
      ack(await mgmt(emu, "POST", `/v2/qstash/set-plan/${id}`, { plan_name: "paid" }));
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))).toMatchObject({
        type: "paid",
        reserved_type: "",
      });
    },
    async () =>
      fails(
        await mgmt(emu, "POST", `/v2/qstash/set-plan/${await qstash()}`, { plan_name: "free" }),
        400,
        /^plan_name: must be one of "paid"/,
      ),
  ],
  [
    "getQStashStats",
    async () => {
      const s = ok(await mgmt(emu, "GET", `/v2/qstash/stats/${await qstash()}?period=3h`));
      const days = s["days"] as string[];
      const now = new Date();
      expect(days).toHaveLength(
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate(),
      );
      expect(s["daily_requests"]).toHaveLength(days.length);
      expect((s["daily_requests"] as Rec[])[0]).toMatchObject({
        x: expect.any(String),
        y: expect.any(Number),
        workflow_message: expect.any(Number),
        workflow_run: expect.any(Number),
      });
      expect(s["daily_used"]).toHaveLength(60);
      expect((s["daily_qstash_messages"] as Rec[]).map((m) => m["id"])).toContain("delivered");
      expect(s).toMatchObject({
        dlq_message_count: expect.any(Number),
        total_monthly_billing: expect.any(Number),
      });
    },
    async () => fails(await mgmt(emu, "GET", `/v2/qstash/stats/${MISSING}`), 404, /not found/),
  ],
  [
    "getQStashIPv4",
    async () => {
      // No authentication needed, and the usual header is fine.
      const open = await raw(emu, "/v2/qstash/ipv4");
      expect(open.status, open.text).toBe(200);
      expect(open.body).toEqual(
        expect.arrayContaining([expect.stringMatching(/^\d+\.\d+\.\d+\.\d+\/\d+$/)]),
      );
      expect(ok(await mgmt(emu, "GET", "/v2/qstash/ipv4"))).toEqual(open.body);
    },
    async () => fails(await mgmt(emu, "POST", "/v2/qstash/ipv4"), 405, /not allowed/),
  ],
  [
    "moveQStashToTeam",
    async () => {
      const [id, t] = [await qstash(), await team()];
      ack(await mgmt(emu, "POST", "/v2/qstash/move-to-team", { qstash_id: id, target_team_id: t }));
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))["customer_id"]).toBe(t);
    },
    async () => {
      fails(
        await mgmt(emu, "POST", "/v2/qstash/move-to-team", {
          qstash_id: await qstash(),
          target_team_id: MISSING,
        }),
        404,
        /^target_team_id: team .* not found/,
      );
      fails(
        await mgmt(emu, "POST", "/v2/qstash/move-to-team", { qstash_id: "x" }),
        400,
        /^target_team_id: is required/,
      );
    },
  ],
  [
    "updateQStashBudget",
    async () => {
      const id = await qstash();
      ack(await mgmt(emu, "PATCH", `/v2/qstash/update-budget/${id}`, { budget: 50 }));
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))["budget"]).toBe(50);
      ack(await mgmt(emu, "PATCH", `/v2/qstash/update-budget/${id}`, { budget: 0 }));
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))["budget"]).toBe(0);
    },
    async () => {
      const id = await qstash();
      // Within the schema's 0–10000, yet under the service's minimum of 20.
      fails(
        await mgmt(emu, "PATCH", `/v2/qstash/update-budget/${id}`, { budget: 5 }),
        400,
        /^budget: must be 0 \(no cap\) or from 20 to 10000/,
      );
      fails(
        await mgmt(emu, "PATCH", `/v2/qstash/update-budget/${id}`, { budget: 10_001 }),
        400,
        /^budget: must be an integer from 0 to 10000/,
      );
    },
  ],
  [
    "enableQStashProdPack",
    async () => {
      const id = await qstash();
      ack(await mgmt(emu, "POST", `/v2/qstash/enable-prodpack/${id}`));
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))["prod_pack_enabled"]).toBe(true);
      ack(await mgmt(emu, "POST", `/v2/qstash/enable-prodpack/${id}`));
    },
    async () =>
      fails(await mgmt(emu, "POST", `/v2/qstash/enable-prodpack/${MISSING}`), 404, /not found/),
  ],
  [
    "disableQStashProdPack",
    async () => {
      const id = await qstash();
      ack(await mgmt(emu, "POST", `/v2/qstash/enable-prodpack/${id}`));
      ack(await mgmt(emu, "POST", `/v2/qstash/disable-prodpack/${id}`));
      expect(ok(await mgmt(emu, "GET", `/v2/qstash/user/${id}`))["prod_pack_enabled"]).toBe(false);
    },
    async () =>
      fails(await mgmt(emu, "POST", `/v2/qstash/disable-prodpack/${MISSING}`), 404, /not found/),
  ],
];

describe("management operations", () => {
  it("cover every operation of the spec", () => {
    const ids = operations.filter((op) => op.api === "management").map((op) => op.operationId);
    expect(ids).toHaveLength(58);
    expect(cases.map(([id]) => id).sort()).toEqual(ids.sort());
  });

  describe.each(cases)("%s", (_id, happy, error) => {
    it("happy path, each write in the audit log", async () => {
      writes = [];
      await happy();
      const want = writes.map((w) => ({ actor: w.actor, action: actionOf(w.operationId).name }));
      const key = (e: { actor: string; action: string }) => `${e.actor} ${e.action}`;
      expect((await audited()).map(key).sort()).toEqual(want.map(key).sort());
    });
    it("error path", error);
  });
});
