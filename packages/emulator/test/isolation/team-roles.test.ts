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
  ["deleteVectorIndex", "DELETE", `/v2/vector/index/${index}`],
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
