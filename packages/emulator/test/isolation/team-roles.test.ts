// Team roles over HTTP: a finance member cannot touch the team's databases, backups or indexes; a dev
// can use them but not change members; only owners and admins change members; only the owner deletes
// the team. The owner keeps every resource whatever a forbidden call tried.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { errorOf, mgmt, start, type Answer } from "../helpers.js";

const OWNER = { email: "owner@example.com", apiKey: "owner-key" };
const ADMIN = { email: "admin@example.com", apiKey: "admin-key" };
const DEV = { email: "dev@example.com", apiKey: "dev-key" };
const FINANCE = { email: "finance@example.com", apiKey: "finance-key" };

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ accounts: [OWNER, ADMIN, DEV, FINANCE] });
});
afterAll(() => emu.close());

const ok = (a: Answer): Record<string, unknown> => {
  expect(a.status, a.text).toBe(200);
  return a.body as Record<string, unknown>;
};

/** A team of the four roles owning one database (with a backup) and one vector index. */
let team: string;
let db: string;
let backup: string;
let index: string;
let search: string;
let qstash: string;
beforeEach(async () => {
  emu.reset();
  team = String(
    ok(await mgmt(emu, "POST", "/v2/team", { team_name: "t", copy_cc: false }, OWNER))["team_id"],
  );
  for (const [who, role] of [
    [ADMIN, "admin"],
    [DEV, "dev"],
    [FINANCE, "finance"],
  ] as const) {
    ok(
      await mgmt(
        emu,
        "POST",
        "/v2/teams/member",
        { team_id: team, member_email: who.email, member_role: role },
        OWNER,
      ),
    );
  }
  db = String(
    ok(
      await mgmt(
        emu,
        "POST",
        "/v2/redis/database",
        { database_name: "d", primary_region: "us-east-1" },
        OWNER,
      ),
    )["database_id"],
  );
  ok(await mgmt(emu, "POST", "/v2/redis/move-to-team", { team_id: team, database_id: db }, OWNER));
  ok(await mgmt(emu, "POST", `/v2/redis/create-backup/${db}`, { name: "b" }, OWNER));
  backup = String(
    (
      ok(
        await mgmt(emu, "GET", `/v2/redis/list-backup/${db}`, undefined, OWNER),
      ) as unknown as Record<string, unknown>[]
    )[0]!["backup_id"],
  );
  index = String(
    ok(
      await mgmt(
        emu,
        "POST",
        "/v2/vector/index",
        { name: "i", region: "us-east-1", similarity_function: "COSINE", dimension_count: 8 },
        OWNER,
      ),
    )["id"],
  );
  ok(
    await mgmt(emu, "POST", `/v2/vector/index/${index}/transfer`, { target_account: team }, OWNER),
  );
  search = String(
    ok(
      await mgmt(
        emu,
        "POST",
        "/v2/search",
        { name: "s", region: "eu-west-1", type: "free" },
        OWNER,
      ),
    )["id"],
  );
  ok(await mgmt(emu, "POST", `/v2/search/${search}/transfer`, { target_account: team }, OWNER));
  const users = ok(await mgmt(emu, "GET", "/v2/qstash/users", undefined, OWNER));
  qstash = String((users as unknown as Record<string, unknown>[])[0]!["id"]);
  ok(
    await mgmt(
      emu,
      "POST",
      "/v2/qstash/move-to-team",
      { qstash_id: qstash, target_team_id: team },
      OWNER,
    ),
  );
});

/** Every operation on a team resource: [name, method, path, body]. */
const TEAM_RESOURCE_OPERATIONS = (): [string, string, string, unknown?][] => [
  ["getDatabase", "GET", `/v2/redis/database/${db}`],
  ["getDatabaseStats", "GET", `/v2/redis/stats/${db}`],
  ["renameDatabase", "POST", `/v2/redis/rename/${db}`, { name: "mine" }],
  ["resetDatabasePassword", "POST", `/v2/redis/reset-password/${db}`],
  ["enableDatabaseTls", "POST", `/v2/redis/enable-tls/${db}`],
  ["enableDatabaseEviction", "POST", `/v2/redis/enable-eviction/${db}`],
  ["disableDatabaseEviction", "POST", `/v2/redis/disable-eviction/${db}`],
  ["enableDatabaseAutoUpgrade", "POST", `/v2/redis/enable-autoupgrade/${db}`],
  ["disableDatabaseAutoUpgrade", "POST", `/v2/redis/disable-autoupgrade/${db}`],
  [
    "updateDatabaseRegions",
    "POST",
    `/v2/redis/update-regions/${db}`,
    { read_regions: ["eu-west-1"] },
  ],
  [
    "moveDatabaseToTeam (out to a personal account)",
    "POST",
    "/v2/redis/move-to-team",
    { team_id: FINANCE.email, database_id: db },
  ],
  ["createBackup", "POST", `/v2/redis/create-backup/${db}`, { name: "x" }],
  ["listBackups", "GET", `/v2/redis/list-backup/${db}`],
  ["restoreBackup", "POST", `/v2/redis/restore-backup/${db}`, { backup_id: backup }],
  ["deleteBackup", "DELETE", `/v2/redis/delete-backup/${db}/${backup}`],
  ["enableDailyBackup", "PATCH", `/v2/redis/enable-dailybackup/${db}`],
  ["disableDailyBackup", "PATCH", `/v2/redis/disable-dailybackup/${db}`],
  ["deleteDatabase", "DELETE", `/v2/redis/database/${db}`],
  ["getVectorIndex", "GET", `/v2/vector/index/${index}`],
  ["renameVectorIndex", "POST", `/v2/vector/index/${index}/rename`, { name: "mine" }],
  ["resetVectorIndexTokens", "POST", `/v2/vector/index/${index}/reset-password`],
  ["setVectorIndexPlan", "POST", `/v2/vector/index/${index}/setplan`, { target_plan: "fixed" }],
  [
    "transferVectorIndex (to a personal account)",
    "POST",
    `/v2/vector/index/${index}/transfer`,
    { target_account: FINANCE.email },
  ],
  ["getVectorIndexStats", "GET", `/v2/vector/index/${index}/stats`],
  ["deleteVectorIndex", "DELETE", `/v2/vector/index/${index}`],
  ["changePlan", "POST", `/v2/redis/${db}/change-plan`, { plan_name: "free" }],
  ["updateBudget", "PATCH", `/v2/redis/update-budget/${db}`, { budget: 1 }],
  ["getSearchIndex", "GET", `/v2/search/${search}`],
  ["getSearchIndexStats", "GET", `/v2/search/${search}/stats`],
  ["renameSearchIndex", "POST", `/v2/search/${search}/rename`, { name: "mine" }],
  ["resetSearchPassword", "POST", `/v2/search/${search}/reset-password`],
  [
    "transferSearchIndex (to another team)",
    "POST",
    `/v2/search/${search}/transfer`,
    { target_account: team },
  ],
  ["deleteSearchIndex", "DELETE", `/v2/search/${search}`],
  ["getQStashUser", "GET", `/v2/qstash/user/${qstash}`],
  ["getQStashStats", "GET", `/v2/qstash/stats/${qstash}`],
  ["resetQStashToken", "POST", `/v2/qstash/rotate-token/${qstash}`],
  ["setQStashPlan", "POST", `/v2/qstash/set-plan/${qstash}`, { plan_name: "paid" }],
  ["updateQStashBudget", "PATCH", `/v2/qstash/update-budget/${qstash}`, { budget: 20 }],
  ["enableQStashProdPack", "POST", `/v2/qstash/enable-prodpack/${qstash}`],
  ["disableQStashProdPack", "POST", `/v2/qstash/disable-prodpack/${qstash}`],
  [
    "moveQStashToTeam (out to a personal account)",
    "POST",
    "/v2/qstash/move-to-team",
    { qstash_id: qstash, target_team_id: FINANCE.email },
  ],
];

/** The owner still sees the team's database (same name and password), backup and index. */
async function ownerStillHasEverything(before: Record<string, unknown>): Promise<void> {
  const now = ok(await mgmt(emu, "GET", `/v2/redis/database/${db}`, undefined, OWNER));
  expect(now).toMatchObject({ database_name: "d", password: before["password"], read_regions: [] });
  expect(ok(await mgmt(emu, "GET", `/v2/redis/list-backup/${db}`, undefined, OWNER))).toHaveLength(
    1,
  );
  const idx = ok(await mgmt(emu, "GET", `/v2/vector/index/${index}`, undefined, OWNER));
  expect(idx).toMatchObject({ name: "i", customer_id: team, type: "payg" });
  expect(ok(await mgmt(emu, "GET", "/v2/redis/databases", undefined, OWNER))).toHaveLength(1);
  expect(ok(await mgmt(emu, "GET", "/v2/vector/index", undefined, OWNER))).toHaveLength(1);
  const s = ok(await mgmt(emu, "GET", `/v2/search/${search}`, undefined, OWNER));
  expect(s).toMatchObject({ name: "s", customer_id: team });
  const q = ok(await mgmt(emu, "GET", `/v2/qstash/user/${qstash}`, undefined, OWNER));
  expect(q).toMatchObject({ customer_id: team, type: "free", prod_pack_enabled: false });
}

describe("a finance member", () => {
  it("gets 403 with a clear error on every operation on the team's databases, backups and indexes", async () => {
    const before = ok(await mgmt(emu, "GET", `/v2/redis/database/${db}`, undefined, OWNER));
    for (const [name, method, path, body] of TEAM_RESOURCE_OPERATIONS()) {
      const a = await mgmt(emu, method, path, body, FINANCE);
      expect(a.status, `${name}: ${a.text}`).toBe(403);
      expect(errorOf(a), name).toMatch(
        /a finance member of team .* cannot .*; owner, admin, dev can/,
      );
    }
    await ownerStillHasEverything(before);
  });

  it("cannot move its own database into the team or transfer its index there", async () => {
    const own = String(
      ok(
        await mgmt(
          emu,
          "POST",
          "/v2/redis/database",
          { database_name: "f", primary_region: "us-east-1" },
          FINANCE,
        ),
      )["database_id"],
    );
    const a = await mgmt(
      emu,
      "POST",
      "/v2/redis/move-to-team",
      { team_id: team, database_id: own },
      FINANCE,
    );
    expect(a.status, a.text).toBe(403);
    expect(errorOf(a)).toMatch(
      /^team_id: a finance member of team .* cannot move resources into it/,
    );
  });

  it("sees the team and its members but none of its resources in listings", async () => {
    expect(ok(await mgmt(emu, "GET", "/v2/teams", undefined, FINANCE))).toEqual([
      expect.objectContaining({ team_id: team, member_role: "finance" }),
    ]);
    expect(ok(await mgmt(emu, "GET", `/v2/teams/${team}`, undefined, FINANCE))).toHaveLength(4);
    expect(ok(await mgmt(emu, "GET", "/v2/redis/databases", undefined, FINANCE))).toEqual([]);
    expect(ok(await mgmt(emu, "GET", "/v2/vector/index", undefined, FINANCE))).toEqual([]);
    expect(ok(await mgmt(emu, "GET", "/v2/search", undefined, FINANCE))).toEqual([]);
    // Its own QStash users only, not the team's.
    const users = ok(await mgmt(emu, "GET", "/v2/qstash/users", undefined, FINANCE));
    expect((users as unknown as Record<string, unknown>[]).map((u) => u["customer_id"])).toEqual([
      FINANCE.email,
      FINANCE.email,
    ]);
  });
});

describe("a dev member", () => {
  it("reads and changes the team's resources", async () => {
    expect(ok(await mgmt(emu, "GET", "/v2/redis/databases", undefined, DEV))).toHaveLength(1);
    ok(await mgmt(emu, "POST", `/v2/redis/rename/${db}`, { name: "by-dev" }, DEV));
    expect(
      ok(await mgmt(emu, "GET", `/v2/redis/database/${db}`, undefined, OWNER))["database_name"],
    ).toBe("by-dev");
    ok(await mgmt(emu, "POST", `/v2/vector/index/${index}/setplan`, { target_plan: "fixed" }, DEV));
    ok(await mgmt(emu, "POST", `/v2/search/${search}/rename`, { name: "by-dev" }, DEV));
    ok(await mgmt(emu, "POST", `/v2/qstash/enable-prodpack/${qstash}`, undefined, DEV));
    expect(ok(await mgmt(emu, "GET", "/v2/qstash/users", undefined, DEV))).toHaveLength(3);
  });

  it("does not read the team's audit log; the owner and an admin do, with the dev as actor", async () => {
    ok(await mgmt(emu, "POST", `/v2/search/${search}/rename`, { name: "by-dev" }, DEV));
    const rename = expect.objectContaining({
      actor: DEV.email,
      customer_id: team,
      action_string: "Rename Search Index",
      entity: search,
    });
    for (const who of [OWNER, ADMIN]) {
      expect(ok(await mgmt(emu, "GET", "/auditlogs", undefined, who))).toContainEqual(rename);
    }
    expect(ok(await mgmt(emu, "GET", "/auditlogs", undefined, DEV))).not.toContainEqual(rename);
  });

  it.each<[string, string, () => unknown]>([
    [
      "add a member",
      "POST",
      () => ({ team_id: team, member_email: "new@example.com", member_role: "dev" }),
    ],
    ["remove a member", "DELETE", () => ({ team_id: team, member_email: FINANCE.email })],
  ])("cannot %s (403)", async (_, method, body) => {
    const a = await mgmt(emu, method, "/v2/teams/member", body(), DEV);
    expect(a.status, a.text).toBe(403);
    expect(errorOf(a)).toMatch(/a dev member cannot change its members; only owner or admin can/);
  });
});

describe("team management", () => {
  it("an admin changes members but cannot delete the team; the owner can", async () => {
    ok(
      await mgmt(
        emu,
        "POST",
        "/v2/teams/member",
        { team_id: team, member_email: "new@example.com", member_role: "dev" },
        ADMIN,
      ),
    );
    ok(
      await mgmt(
        emu,
        "DELETE",
        "/v2/teams/member",
        { team_id: team, member_email: "new@example.com" },
        ADMIN,
      ),
    );
    for (const who of [ADMIN, DEV, FINANCE]) {
      const a = await mgmt(emu, "DELETE", `/v2/team/${team}`, undefined, who);
      expect(a.status, a.text).toBe(403);
      expect(errorOf(a)).toMatch(/cannot delete it; only owner can/);
    }
    ok(await mgmt(emu, "DELETE", `/v2/redis/database/${db}`, undefined, OWNER));
    ok(await mgmt(emu, "DELETE", `/v2/vector/index/${index}`, undefined, OWNER));
    ok(await mgmt(emu, "DELETE", `/v2/search/${search}`, undefined, OWNER));
    // Still owns a QStash user: refused until it moves out.
    const a = await mgmt(emu, "DELETE", `/v2/team/${team}`, undefined, OWNER);
    expect(a.status, a.text).toBe(400);
    expect(errorOf(a)).toMatch(/still owns .* 1 QStash user/);
    ok(
      await mgmt(
        emu,
        "POST",
        "/v2/qstash/move-to-team",
        { qstash_id: qstash, target_team_id: OWNER.email },
        OWNER,
      ),
    );
    ok(await mgmt(emu, "DELETE", `/v2/team/${team}`, undefined, OWNER));
  });

  it("someone outside the team still gets 404 for its resources, as for a missing id", async () => {
    ok(
      await mgmt(
        emu,
        "DELETE",
        "/v2/teams/member",
        { team_id: team, member_email: FINANCE.email },
        OWNER,
      ),
    );
    const a = await mgmt(emu, "POST", `/v2/redis/reset-password/${db}`, undefined, FINANCE);
    expect(a.status, a.text).toBe(404);
    expect(errorOf(a)).toMatch(/not found/);
  });
});
