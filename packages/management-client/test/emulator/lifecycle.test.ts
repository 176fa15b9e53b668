import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createManagementClient,
  NotFoundError,
} from "../../src/index.js";

// All 34 operations against the emulator: the client and the emulator read the same spec, so this
// checks that they agree on paths, bodies and results.
let emu: Emulator;
const ALICE = { email: "alice@example.com", apiKey: "alice-key" };
const BOB = { email: "bob@example.com", apiKey: "bob-key" };
beforeAll(async () => {
  emu = await startEmulator({ port: 0, accounts: [ALICE, BOB] });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const as = (account: typeof ALICE) => createManagementClient({ ...account, baseUrl: emu.url });

describe("management client against the emulator", () => {
  it("databases: create, read, change and delete", async () => {
    const m = as(ALICE);
    const db = await m.databases.create({
      name: "cache",
      primary_region: "eu-west-1",
      read_regions: ["us-east-1"],
      tls: true,
    });
    expect(db).toMatchObject({
      database_name: "cache",
      region: "global",
      primary_region: "eu-west-1",
    });
    expect(db.password).toBeTruthy();

    expect(await m.databases.get(db.database_id!)).toMatchObject({
      database_id: db.database_id!,
      password: db.password,
    });
    const masked = await m.databases.get(db.database_id!, { credentials: "hide" });
    expect(masked.password ?? "***").toBe("***");
    expect((await m.databases.list()).map((d) => d.database_id!)).toEqual([db.database_id!]);
    expect(await m.databases.stats(db.database_id!)).toHaveProperty("throughput");
    expect(await m.databases.rename(db.database_id!, { name: "cache-eu" })).toMatchObject({
      database_name: "cache-eu",
    });
    const reset = await m.databases.resetPassword(db.database_id!);
    expect(reset.password).not.toBe(db.password);
    expect(await m.databases.enableTls(db.database_id!)).toMatchObject({ tls: true });

    await expect(m.databases.enableEviction(db.database_id!)).resolves.toBeUndefined();
    expect(await m.databases.get(db.database_id!)).toMatchObject({ eviction: true });
    await m.databases.disableEviction(db.database_id!);
    await m.databases.enableAutoUpgrade(db.database_id!);
    expect(await m.databases.get(db.database_id!)).toMatchObject({
      eviction: false,
      auto_upgrade: true,
    });
    await m.databases.disableAutoUpgrade(db.database_id!);
    await m.databases.updateRegions(db.database_id!, { read_regions: ["us-west-1", "sa-east-1"] });
    expect((await m.databases.get(db.database_id!)).read_regions).toEqual([
      "us-west-1",
      "sa-east-1",
    ]);

    await m.databases.delete(db.database_id!);
    await expect(m.databases.get(db.database_id!)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("backups: create, list, restore, daily toggles, delete", async () => {
    const m = as(ALICE);
    const db = await m.databases.create({ name: "main", primary_region: "us-east-1" });
    await expect(m.backups.create(db.database_id!, { name: "nightly" })).resolves.toBeUndefined();
    const [backup] = await m.backups.list(db.database_id!);
    expect(backup).toMatchObject({ name: "nightly", database_id: db.database_id! });
    await m.backups.restore(db.database_id!, { backup_id: backup!.backup_id! });
    await m.backups.enableDaily(db.database_id!);
    expect(await m.databases.get(db.database_id!)).toMatchObject({ daily_backup_enabled: true });
    await m.backups.disableDaily(db.database_id!);
    await m.backups.delete(db.database_id!, backup!.backup_id!);
    expect(await m.backups.list(db.database_id!)).toEqual([]);

    const other = await m.databases.create({ name: "other", primary_region: "us-east-1" });
    await m.backups.create(other.database_id!, { name: "theirs" });
    const [theirs] = await m.backups.list(other.database_id!);
    await expect(
      m.backups.restore(db.database_id!, { backup_id: theirs!.backup_id! }),
    ).rejects.toBeInstanceOf(BadRequestError);
  });

  it("teams: create, members, move a database, delete", async () => {
    const m = as(ALICE);
    const team = await m.teams.create({ team_name: "Platform", copy_cc: false });
    expect(team).toMatchObject({ team_name: "Platform" });
    expect((await m.teams.list()).map((t) => t.team_id!)).toContain(team.team_id!);
    const member = await m.teams.addMember({
      team_id: team.team_id!,
      member_email: BOB.email,
      member_role: "dev",
    });
    expect(member).toMatchObject({ member_email: BOB.email, member_role: "dev" });
    await expect(
      m.teams.addMember({ team_id: team.team_id!, member_email: BOB.email, member_role: "admin" }),
    ).rejects.toBeInstanceOf(ConflictError);
    const roles = Object.fromEntries(
      (await m.teams.listMembers(team.team_id!)).map((x) => [x.member_email!, x.member_role!]),
    );
    expect(roles).toEqual({ [ALICE.email]: "owner", [BOB.email]: "dev" });

    const db = await m.databases.create({ name: "shared", primary_region: "eu-west-1" });
    await m.databases.moveToTeam({ team_id: team.team_id!, database_id: db.database_id! });
    // Bob sees the team's database now; before joining he saw nothing.
    expect((await as(BOB).databases.list()).map((d) => d.database_id!)).toEqual([db.database_id!]);
    await m.databases.delete(db.database_id!);

    await m.teams.removeMember({ team_id: team.team_id!, member_email: BOB.email });
    await expect(
      m.teams.removeMember({ team_id: team.team_id!, member_email: BOB.email }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await m.teams.delete(team.team_id!);
    expect((await m.teams.list()).map((t) => t.team_id!)).not.toContain(team.team_id!);
  });

  it("vector indexes: create, read, rename, reset tokens, plan, transfer, delete", async () => {
    const m = as(ALICE);
    const index = await m.vector.create({
      name: "docs",
      region: "us-east-1",
      similarity_function: "EUCLIDIAN",
      dimension_count: 384,
      type: "payg",
      embedding_model: "BGE_SMALL_EN_V1_5",
    });
    expect(index).toMatchObject({ name: "docs", dimension_count: 384 });
    expect((await m.vector.list()).map((i) => i.id!)).toEqual([index.id!]);
    await m.vector.rename(index.id!, { name: "docs-v2" });
    await m.vector.resetTokens(index.id!);
    const after = await m.vector.get(index.id!);
    expect(after.name!).toBe("docs-v2");
    expect(after.token).not.toBe(index.token);
    expect(after.read_only_token).not.toBe(index.read_only_token);
    await m.vector.setPlan(index.id!, { target_plan: "fixed" });
    expect((await m.vector.get(index.id!)).type).toBe("fixed");

    const team = await m.teams.create({ team_name: "Search", copy_cc: false });
    await m.vector.transfer(index.id!, { target_account: team.team_id! });
    await m.vector.delete(index.id!);
    await expect(m.vector.get(index.id!)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("another account's resources answer 404, and wrong credentials 401", async () => {
    const db = await as(ALICE).databases.create({ name: "private", primary_region: "eu-west-1" });
    await expect(as(BOB).databases.get(db.database_id!)).rejects.toBeInstanceOf(NotFoundError);
    await expect(as(BOB).databases.delete(db.database_id!)).rejects.toBeInstanceOf(NotFoundError);
    expect(await as(ALICE).databases.get(db.database_id!)).toMatchObject({
      database_name: "private",
    });
    await expect(as({ ...ALICE, apiKey: "wrong" }).databases.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it("an injected 503 on a read is retried; on a create it is not", async () => {
    const m = as(ALICE);
    emu.faults.add({ operationId: "listDatabases", status: 503, times: 1 });
    await expect(m.databases.list()).resolves.toEqual([]);
    emu.faults.add({ operationId: "createDatabase", status: 503, times: 1 });
    await expect(
      m.databases.create({ name: "x", primary_region: "eu-west-1" }),
    ).rejects.toMatchObject({ status: 503 });
    expect(await m.databases.list()).toEqual([]);
  });
});
