// Contract: every management operation, called through its method, `request()` and `raw`, against a
// prism mock of our spec and against the emulator; each must answer in the shape the spec promises
// for the 200 body (checked against the spec document itself, not against our own types). The logs
// spec's operations are called through the logs client's `raw`.
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createLogsClient } from "@api-clients/logs-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManagementClient, type ManagementClient } from "../../src/index.js";
import { startPrism, type Prism } from "./prism.js";
import { loadSpec, specFile, type SpecOperation } from "./spec-shape.js";

const ALICE = { email: "alice@example.com", apiKey: "alice-key" };
const BOB = { email: "bob@example.com", apiKey: "bob-key" };
const LOGS_TOKEN = "contract-logs-token";

/** Ids of the resources a call names (real ones on the emulator, placeholders on prism). */
interface Ids {
  db: string;
  backup: string;
  team: string;
  index: string;
  search: string;
  qstash: string;
}
interface Input {
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}
interface Contract {
  /** The request, as `raw` and `request()` take it. */
  input: (ids: Ids) => Input;
  /** The same call through the ergonomic method. */
  method: (m: ManagementClient, ids: Ids) => Promise<unknown>;
  /** Brings the emulator's state to where the call succeeds (autoupgrade on before disabling it). */
  prepare?: (m: ManagementClient, ids: Ids) => Promise<unknown>;
}

const id = (ids: Ids, key: keyof Ids): Input => ({ path: { id: ids[key] } });
const idBody = (ids: Ids, key: keyof Ids, body: unknown): Input => ({ ...id(ids, key), body });

const CONTRACTS: Record<string, Contract> = {
  createDatabase: {
    input: () => ({ body: { database_name: "c", primary_region: "us-east-1" } }),
    method: (m) => m.databases.create({ database_name: "c", primary_region: "us-east-1" }),
  },
  getDatabase: {
    input: (i) => ({ ...id(i, "db"), query: { credentials: "hide" } }),
    method: (m, i) => m.databases.get(i.db, { credentials: "hide" }),
  },
  deleteDatabase: { input: (i) => id(i, "db"), method: (m, i) => m.databases.delete(i.db) },
  listDatabases: { input: () => ({}), method: (m) => m.databases.list() },
  getDatabaseStats: { input: (i) => id(i, "db"), method: (m, i) => m.databases.stats(i.db) },
  renameDatabase: {
    input: (i) => idBody(i, "db", { name: "n" }),
    method: (m, i) => m.databases.rename(i.db, { name: "n" }),
  },
  resetDatabasePassword: {
    input: (i) => id(i, "db"),
    method: (m, i) => m.databases.resetPassword(i.db),
  },
  enableDatabaseTls: { input: (i) => id(i, "db"), method: (m, i) => m.databases.enableTls(i.db) },
  enableDatabaseEviction: {
    input: (i) => id(i, "db"),
    method: (m, i) => m.databases.enableEviction(i.db),
  },
  disableDatabaseEviction: {
    input: (i) => id(i, "db"),
    method: (m, i) => m.databases.disableEviction(i.db),
  },
  enableDatabaseAutoUpgrade: {
    input: (i) => id(i, "db"),
    method: (m, i) => m.databases.enableAutoUpgrade(i.db),
  },
  disableDatabaseAutoUpgrade: {
    input: (i) => id(i, "db"),
    method: (m, i) => m.databases.disableAutoUpgrade(i.db),
    prepare: (m, i) => m.databases.enableAutoUpgrade(i.db),
  },
  updateDatabaseRegions: {
    input: (i) => idBody(i, "db", { read_regions: ["eu-west-1"] }),
    method: (m, i) => m.databases.updateRegions(i.db, { read_regions: ["eu-west-1"] }),
  },
  moveDatabaseToTeam: {
    input: (i) => ({ body: { team_id: i.team, database_id: i.db } }),
    method: (m, i) => m.databases.moveToTeam({ team_id: i.team, database_id: i.db }),
  },
  createBackup: {
    input: (i) => idBody(i, "db", { name: "b" }),
    method: (m, i) => m.backups.create(i.db, { name: "b" }),
  },
  deleteBackup: {
    input: (i) => ({ path: { id: i.db, backup_id: i.backup } }),
    method: (m, i) => m.backups.delete(i.db, i.backup),
  },
  listBackups: { input: (i) => id(i, "db"), method: (m, i) => m.backups.list(i.db) },
  restoreBackup: {
    input: (i) => idBody(i, "db", { backup_id: i.backup }),
    method: (m, i) => m.backups.restore(i.db, { backup_id: i.backup }),
  },
  enableDailyBackup: { input: (i) => id(i, "db"), method: (m, i) => m.backups.enableDaily(i.db) },
  disableDailyBackup: {
    input: (i) => id(i, "db"),
    method: (m, i) => m.backups.disableDaily(i.db),
  },
  createTeam: {
    input: () => ({ body: { team_name: "t", copy_cc: false } }),
    method: (m) => m.teams.create({ team_name: "t", copy_cc: false }),
  },
  deleteTeam: { input: (i) => id(i, "team"), method: (m, i) => m.teams.delete(i.team) },
  listTeams: { input: () => ({}), method: (m) => m.teams.list() },
  listTeamMembers: {
    input: (i) => ({ path: { team_id: i.team } }),
    method: (m, i) => m.teams.listMembers(i.team),
  },
  addTeamMember: {
    input: (i) => ({
      body: { team_id: i.team, member_email: "carol@example.com", member_role: "dev" },
    }),
    method: (m, i) =>
      m.teams.addMember({ team_id: i.team, member_email: "carol@example.com", member_role: "dev" }),
  },
  removeTeamMember: {
    input: (i) => ({ body: { team_id: i.team, member_email: BOB.email } }),
    method: (m, i) => m.teams.removeMember({ team_id: i.team, member_email: BOB.email }),
  },
  createVectorIndex: {
    input: () => ({ body: VECTOR }),
    method: (m) => m.vector.create(VECTOR),
  },
  listVectorIndexes: { input: () => ({}), method: (m) => m.vector.list() },
  getVectorIndex: { input: (i) => id(i, "index"), method: (m, i) => m.vector.get(i.index) },
  deleteVectorIndex: { input: (i) => id(i, "index"), method: (m, i) => m.vector.delete(i.index) },
  renameVectorIndex: {
    input: (i) => idBody(i, "index", { name: "n" }),
    method: (m, i) => m.vector.rename(i.index, { name: "n" }),
  },
  resetVectorIndexTokens: {
    input: (i) => id(i, "index"),
    method: (m, i) => m.vector.resetTokens(i.index),
  },
  setVectorIndexPlan: {
    input: (i) => idBody(i, "index", { target_plan: "fixed" }),
    method: (m, i) => m.vector.setPlan(i.index, { target_plan: "fixed" }),
  },
  transferVectorIndex: {
    input: (i) => idBody(i, "index", { target_account: i.team }),
    method: (m, i) => m.vector.transfer(i.index, { target_account: i.team }),
  },
  changePlan: {
    input: (i) => idBody(i, "db", { plan_name: "fixed_1gb" }),
    method: (m, i) => m.databases.changePlan(i.db, { plan_name: "fixed_1gb" }),
  },
  updateBudget: {
    input: (i) => idBody(i, "db", { budget: 100 }),
    method: (m, i) => m.databases.updateBudget(i.db, { budget: 100 }),
  },
  listAuditLogs: { input: () => ({}), method: (m) => m.auditLogs.list() },
  getGlobalVectorStats: { input: () => ({}), method: (m) => m.vector.globalStats() },
  getVectorIndexStats: {
    input: (i) => ({ ...id(i, "index"), query: { period: "1d" } }),
    method: (m, i) => m.vector.stats(i.index, { period: "1d" }),
  },
  listSearchIndexes: { input: () => ({}), method: (m) => m.search.list() },
  createSearchIndex: {
    input: () => ({ body: SEARCH }),
    method: (m) => m.search.create(SEARCH),
  },
  getSearchIndex: { input: (i) => id(i, "search"), method: (m, i) => m.search.get(i.search) },
  deleteSearchIndex: {
    input: (i) => id(i, "search"),
    method: (m, i) => m.search.delete(i.search),
  },
  getGlobalSearchStats: { input: () => ({}), method: (m) => m.search.globalStats() },
  getSearchIndexStats: {
    input: (i) => ({ ...id(i, "search"), query: { period: "30d" } }),
    method: (m, i) => m.search.stats(i.search, { period: "30d" }),
  },
  resetSearchPassword: {
    input: (i) => id(i, "search"),
    method: (m, i) => m.search.resetTokens(i.search),
  },
  transferSearchIndex: {
    input: (i) => idBody(i, "search", { target_account: i.team }),
    method: (m, i) => m.search.transfer(i.search, { target_account: i.team }),
  },
  renameSearchIndex: {
    input: (i) => idBody(i, "search", { name: "n" }),
    method: (m, i) => m.search.rename(i.search, { name: "n" }),
  },
  listQStashUsers: { input: () => ({}), method: (m) => m.qstash.list() },
  getQStashUser: { input: (i) => id(i, "qstash"), method: (m, i) => m.qstash.get(i.qstash) },
  resetQStashToken: {
    input: (i) => id(i, "qstash"),
    method: (m, i) => m.qstash.resetToken(i.qstash),
  },
  setQStashPlan: {
    input: (i) => idBody(i, "qstash", { plan_name: "paid" }),
    method: (m, i) => m.qstash.setPlan(i.qstash, { plan_name: "paid" }),
  },
  getQStashStats: {
    input: (i) => ({ ...id(i, "qstash"), query: { period: "3h" } }),
    method: (m, i) => m.qstash.stats(i.qstash, { period: "3h" }),
  },
  getQStashIPv4: { input: () => ({}), method: (m) => m.qstash.ipv4() },
  moveQStashToTeam: {
    input: (i) => ({ body: { qstash_id: i.qstash, target_team_id: i.team } }),
    method: (m, i) => m.qstash.moveToTeam({ qstash_id: i.qstash, target_team_id: i.team }),
  },
  updateQStashBudget: {
    input: (i) => idBody(i, "qstash", { budget: 50 }),
    method: (m, i) => m.qstash.updateBudget(i.qstash, { budget: 50 }),
  },
  enableQStashProdPack: {
    input: (i) => id(i, "qstash"),
    method: (m, i) => m.qstash.enableProdPack(i.qstash),
  },
  disableQStashProdPack: {
    input: (i) => id(i, "qstash"),
    method: (m, i) => m.qstash.disableProdPack(i.qstash),
  },
};

const SEARCH = { name: "s", region: "eu-west-1", type: "free" } as const;

const VECTOR = {
  name: "v",
  region: "us-east-1",
  similarity_function: "COSINE",
  dimension_count: 8,
  type: "payg",
} as const;

const management = loadSpec("management");
const logs = loadSpec("logs");

let emu: Emulator;
let prismManagement: Prism;
let prismLogs: Prism;
const PLACEHOLDERS: Ids = {
  db: "db-1",
  backup: "backup-1",
  team: "team-1",
  index: "index-1",
  search: "search-1",
  qstash: "qstash-1",
};

beforeAll(async () => {
  // Both mocks start in parallel; prism takes several seconds each on a busy machine.
  [prismManagement, prismLogs, emu] = await Promise.all([
    startPrism(specFile("management"), "/v2/teams", 45_000),
    startPrism(specFile("logs"), "/v2/logs", 45_000),
    startEmulator({ accounts: [ALICE, BOB], logsToken: LOGS_TOKEN, seedLogs: 20 }),
  ]);
}, 50_000);

afterAll(async () => {
  await Promise.all([prismManagement?.stop(), prismLogs?.stop(), emu?.close()]);
});

const client = (baseUrl: string): ManagementClient =>
  createManagementClient({ ...ALICE, baseUrl, maxRetries: 0, timeoutMs: 10_000 });

/** Fresh emulator state holding one of each resource, Bob a member of the team. */
async function emulatorIds(m: ManagementClient): Promise<Ids> {
  emu.reset();
  const db = await m.databases.create({ database_name: "d", primary_region: "us-east-1" });
  await m.backups.create(db.database_id!, { name: "b" });
  const [backup] = await m.backups.list(db.database_id!);
  const team = await m.teams.create({ team_name: "t", copy_cc: false });
  await m.teams.addMember({ team_id: team.team_id!, member_email: BOB.email, member_role: "dev" });
  const index = await m.vector.create(VECTOR);
  const search = await m.search.create(SEARCH);
  const [qstash] = await m.qstash.list();
  return {
    db: db.database_id!,
    backup: backup!.backup_id!,
    team: team.team_id!,
    index: index.id!,
    search: String(search.id),
    qstash: String(qstash?.id),
  };
}

type Way = "method" | "request" | "raw";
const WAYS: Way[] = ["method", "request", "raw"];

/** Calls `op` one way and returns the 200 body as JSON sees it (an acknowledgement as `"OK"`). */
async function call(way: Way, m: ManagementClient, op: SpecOperation, ids: Ids): Promise<unknown> {
  const contract = CONTRACTS[op.operationId]!;
  const input = contract.input(ids);
  const ack = op.success["type"] === "string";
  if (way === "method" || way === "request") {
    const out =
      way === "method"
        ? await contract.method(m, ids)
        : await (m.request as unknown as (id: string, input: Input) => Promise<unknown>)(
            op.operationId,
            input,
          );
    return ack ? (out ?? "OK") : out;
  }
  const send = (m.raw as unknown as Record<string, Function>)[op.method] as (
    path: string,
    init: object,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const { data, error, response } = await send(op.path, {
    params: { path: input.path, query: input.query },
    ...(input.body === undefined ? {} : { body: input.body }),
  });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data;
}

describe("contract: management", () => {
  it("has a contract for every operation of the spec", () => {
    expect(management.operations).toHaveLength(58);
    expect(Object.keys(CONTRACTS).sort()).toEqual(
      management.operations.map((o) => o.operationId).sort(),
    );
  });

  it("the shape check refuses what the spec does not promise", () => {
    const op = (id: string) => management.operations.find((o) => o.operationId === id)!.success;
    expect(management.problems(op("listDatabases"), [{ database_id: 5 }])).toEqual([
      "body[0].database_id: 5 is not a string",
    ]);
    expect(management.problems(op("getDatabaseStats"), { throughput: [{ x: "t" }] })).toEqual([
      "body.throughput[0].y: is required",
    ]);
    expect(management.problems(op("deleteDatabase"), {})).toHaveLength(1);
    expect(management.problems(op("listTeams"), {})).toHaveLength(1);
  });

  describe.each(management.operations.map((o) => [o.operationId, o] as const))("%s", (_id, op) => {
    it.each(WAYS)("prism answers %s in the spec's shape", async (way) => {
      const body = await call(way, client(prismManagement.url), op, PLACEHOLDERS);
      expect(management.problems(op.success, body)).toEqual([]);
    });

    it.each(WAYS)("the emulator answers %s in the spec's shape", async (way) => {
      const m = client(emu.url);
      const ids = await emulatorIds(m);
      await CONTRACTS[op.operationId]!.prepare?.(m, ids);
      const body = await call(way, m, op, ids);
      expect(management.problems(op.success, body)).toEqual([]);
    });
  });
});

describe("contract: logs", () => {
  it.each(logs.operations.map((o) => [o.operationId, o] as const))(
    "%s: prism and the emulator answer the logs client in the spec's shape",
    async (_id, op) => {
      for (const baseUrl of [prismLogs.url, emu.url]) {
        const l = createLogsClient({ token: LOGS_TOKEN, baseUrl, maxRetries: 0 });
        const send = (l.raw as unknown as Record<string, Function>)[op.method] as (
          path: string,
          init: object,
        ) => Promise<{ data?: unknown; response: Response }>;
        const { data, response } = await send(op.path, { params: { query: { count: 5 } } });
        expect(response.status).toBe(200);
        expect(logs.problems(op.success, data)).toEqual([]);
      }
    },
  );
});
