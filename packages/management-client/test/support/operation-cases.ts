import type { ManagementClient, OperationId } from "../../src/index.js";
import {
  auditLog,
  backup,
  database,
  globalStats,
  member,
  qstashStats,
  qstashUser,
  searchIndex,
  stats,
  team,
  vectorIndex,
  vectorStats,
} from "./fixtures.js";

/** One call per operation of the spec, with the request it must produce and the record it returns. */
export interface Case {
  /** The call under test. */
  call: (m: ManagementClient) => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string>;
  /** The JSON body the server must receive (`undefined`: no body at all). */
  body?: unknown;
  /** The record the server answers with; absent for acknowledged operations. */
  returns?: unknown;
}

const DB = database.database_id!;
const IDX = vectorIndex.id!;
const SRCH = searchIndex.id!;
const QS = qstashUser.id!;

export const cases: Record<OperationId, Case> = {
  createDatabase: {
    call: (m) =>
      m.databases.create({
        name: "cache",
        primary_region: "eu-west-1",
        read_regions: ["us-east-1", "ap-northeast-1"],
        tls: true,
      }),
    method: "POST",
    path: "/v2/redis/database",
    body: {
      name: "cache",
      primary_region: "eu-west-1",
      read_regions: ["us-east-1", "ap-northeast-1"],
      tls: true,
    },
    returns: database,
  },
  getDatabase: {
    call: (m) => m.databases.get(DB, { credentials: "hide" }),
    method: "GET",
    path: `/v2/redis/database/${DB}`,
    query: { credentials: "hide" },
    returns: { ...database, password: "***", rest_token: "***", read_only_rest_token: "***" },
  },
  deleteDatabase: {
    call: (m) => m.databases.delete(DB),
    method: "DELETE",
    path: `/v2/redis/database/${DB}`,
  },
  listDatabases: {
    call: (m) => m.databases.list(),
    method: "GET",
    path: "/v2/redis/databases",
    returns: [database, { ...database, database_id: "second", database_name: "sessions" }],
  },
  getDatabaseStats: {
    call: (m) => m.databases.stats(DB),
    method: "GET",
    path: `/v2/redis/stats/${DB}`,
    returns: stats,
  },
  renameDatabase: {
    call: (m) => m.databases.rename(DB, { name: "cache-eu" }),
    method: "POST",
    path: `/v2/redis/rename/${DB}`,
    body: { name: "cache-eu" },
    returns: { ...database, database_name: "cache-eu" },
  },
  resetDatabasePassword: {
    call: (m) => m.databases.resetPassword(DB),
    method: "POST",
    path: `/v2/redis/reset-password/${DB}`,
    returns: { ...database, password: "NewPassword" },
  },
  enableDatabaseTls: {
    call: (m) => m.databases.enableTls(DB),
    method: "POST",
    path: `/v2/redis/enable-tls/${DB}`,
    returns: { ...database, tls: true },
  },
  enableDatabaseEviction: {
    call: (m) => m.databases.enableEviction(DB),
    method: "POST",
    path: `/v2/redis/enable-eviction/${DB}`,
  },
  disableDatabaseEviction: {
    call: (m) => m.databases.disableEviction(DB),
    method: "POST",
    path: `/v2/redis/disable-eviction/${DB}`,
  },
  enableDatabaseAutoUpgrade: {
    call: (m) => m.databases.enableAutoUpgrade(DB),
    method: "POST",
    path: `/v2/redis/enable-autoupgrade/${DB}`,
  },
  disableDatabaseAutoUpgrade: {
    call: (m) => m.databases.disableAutoUpgrade(DB),
    method: "POST",
    path: `/v2/redis/disable-autoupgrade/${DB}`,
  },
  updateDatabaseRegions: {
    call: (m) => m.databases.updateRegions(DB, { read_regions: ["us-east-1", "sa-east-1"] }),
    method: "POST",
    path: `/v2/redis/update-regions/${DB}`,
    body: { read_regions: ["us-east-1", "sa-east-1"] },
  },
  moveDatabaseToTeam: {
    call: (m) => m.databases.moveToTeam({ team_id: team.team_id!, database_id: DB }),
    method: "POST",
    path: "/v2/redis/move-to-team",
    body: { team_id: team.team_id!, database_id: DB },
  },
  createBackup: {
    call: (m) => m.backups.create(DB, { name: "before-migration" }),
    method: "POST",
    path: `/v2/redis/create-backup/${DB}`,
    body: { name: "before-migration" },
  },
  deleteBackup: {
    call: (m) => m.backups.delete(DB, backup.backup_id!),
    method: "DELETE",
    path: `/v2/redis/delete-backup/${DB}/${backup.backup_id!}`,
  },
  listBackups: {
    call: (m) => m.backups.list(DB),
    method: "GET",
    path: `/v2/redis/list-backup/${DB}`,
    returns: [backup, { ...backup, backup_id: "bk-daily", daily_backup: true, state: "pending" }],
  },
  restoreBackup: {
    call: (m) => m.backups.restore(DB, { backup_id: backup.backup_id! }),
    method: "POST",
    path: `/v2/redis/restore-backup/${DB}`,
    body: { backup_id: backup.backup_id! },
  },
  enableDailyBackup: {
    call: (m) => m.backups.enableDaily(DB),
    method: "PATCH",
    path: `/v2/redis/enable-dailybackup/${DB}`,
  },
  disableDailyBackup: {
    call: (m) => m.backups.disableDaily(DB),
    method: "PATCH",
    path: `/v2/redis/disable-dailybackup/${DB}`,
  },
  createTeam: {
    call: (m) => m.teams.create({ team_name: "Platform", copy_cc: true }),
    method: "POST",
    path: "/v2/team",
    body: { team_name: "Platform", copy_cc: true },
    returns: team,
  },
  deleteTeam: {
    call: (m) => m.teams.delete(team.team_id!),
    method: "DELETE",
    path: `/v2/team/${team.team_id!}`,
  },
  listTeams: {
    call: (m) => m.teams.list(),
    method: "GET",
    path: "/v2/teams",
    returns: [{ ...team, member_role: "owner" }],
  },
  listTeamMembers: {
    call: (m) => m.teams.listMembers(team.team_id!),
    method: "GET",
    path: `/v2/teams/${team.team_id!}`,
    returns: [{ ...member, member_email: "ops@example.com", member_role: "owner" }, member],
  },
  addTeamMember: {
    call: (m) =>
      m.teams.addMember({
        team_id: team.team_id!,
        member_email: "dev@example.com",
        member_role: "dev",
      }),
    method: "POST",
    path: "/v2/teams/member",
    body: { team_id: team.team_id!, member_email: "dev@example.com", member_role: "dev" },
    returns: member,
  },
  removeTeamMember: {
    call: (m) => m.teams.removeMember({ team_id: team.team_id!, member_email: "dev@example.com" }),
    method: "DELETE",
    path: "/v2/teams/member",
    body: { team_id: team.team_id!, member_email: "dev@example.com" },
  },
  listVectorIndexes: {
    call: (m) => m.vector.list(),
    method: "GET",
    path: "/v2/vector/index",
    returns: [vectorIndex],
  },
  createVectorIndex: {
    call: (m) =>
      m.vector.create({
        name: "docs",
        region: "us-east-1",
        similarity_function: "EUCLIDEAN",
        dimension_count: 1536,
        type: "payg",
        embedding_model: "BGE_M3",
      }),
    method: "POST",
    path: "/v2/vector/index",
    body: {
      name: "docs",
      region: "us-east-1",
      similarity_function: "EUCLIDEAN",
      dimension_count: 1536,
      type: "payg",
      embedding_model: "BGE_M3",
    },
    returns: { ...vectorIndex, similarity_function: "EUCLIDEAN" },
  },
  getVectorIndex: {
    call: (m) => m.vector.get(IDX),
    method: "GET",
    path: `/v2/vector/index/${IDX}`,
    returns: vectorIndex,
  },
  deleteVectorIndex: {
    call: (m) => m.vector.delete(IDX),
    method: "DELETE",
    path: `/v2/vector/index/${IDX}`,
  },
  renameVectorIndex: {
    call: (m) => m.vector.rename(IDX, { name: "docs-v2" }),
    method: "POST",
    path: `/v2/vector/index/${IDX}/rename`,
    body: { name: "docs-v2" },
  },
  resetVectorIndexTokens: {
    call: (m) => m.vector.resetTokens(IDX),
    method: "POST",
    path: `/v2/vector/index/${IDX}/reset-password`,
  },
  setVectorIndexPlan: {
    call: (m) => m.vector.setPlan(IDX, { target_plan: "fixed" }),
    method: "POST",
    path: `/v2/vector/index/${IDX}/setplan`,
    body: { target_plan: "fixed" },
  },
  transferVectorIndex: {
    call: (m) => m.vector.transfer(IDX, { target_account: team.team_id! }),
    method: "POST",
    path: `/v2/vector/index/${IDX}/transfer`,
    body: { target_account: team.team_id! },
  },
  changePlan: {
    call: (m) => m.databases.changePlan(DB, { plan_name: "fixed_1gb", auto_upgrade: false }),
    method: "POST",
    path: `/v2/redis/${DB}/change-plan`,
    body: { plan_name: "fixed_1gb", auto_upgrade: false },
  },
  updateBudget: {
    call: (m) => m.databases.updateBudget(DB, { budget: 50 }),
    method: "PATCH",
    path: `/v2/redis/update-budget/${DB}`,
    body: { budget: 50 },
  },
  listAuditLogs: {
    call: (m) => m.auditLogs.list(),
    method: "GET",
    path: "/auditlogs",
    returns: [auditLog],
  },
  getGlobalVectorStats: {
    call: (m) => m.vector.globalStats(),
    method: "GET",
    path: "/v2/vector/index/stats",
    returns: globalStats,
  },
  getVectorIndexStats: {
    call: (m) => m.vector.stats(IDX, { period: "7d" }),
    method: "GET",
    path: `/v2/vector/index/${IDX}/stats`,
    query: { period: "7d" },
    returns: vectorStats,
  },
  listSearchIndexes: {
    call: (m) => m.search.list(),
    method: "GET",
    path: "/v2/search",
    returns: [searchIndex],
  },
  createSearchIndex: {
    call: (m) => m.search.create({ name: "docs-search", region: "us-central1", type: "payg" }),
    method: "POST",
    path: "/v2/search",
    body: { name: "docs-search", region: "us-central1", type: "payg" },
    returns: searchIndex,
  },
  getGlobalSearchStats: {
    call: (m) => m.search.globalStats(),
    method: "GET",
    path: "/v2/search/stats",
    returns: globalStats,
  },
  getSearchIndex: {
    call: (m) => m.search.get(SRCH),
    method: "GET",
    path: `/v2/search/${SRCH}`,
    returns: searchIndex,
  },
  deleteSearchIndex: {
    call: (m) => m.search.delete(SRCH),
    method: "DELETE",
    path: `/v2/search/${SRCH}`,
  },
  getSearchIndexStats: {
    call: (m) => m.search.stats(SRCH),
    method: "GET",
    path: `/v2/search/${SRCH}/stats`,
    returns: vectorStats,
  },
  resetSearchPassword: {
    call: (m) => m.search.resetTokens(SRCH),
    method: "POST",
    path: `/v2/search/${SRCH}/reset-password`,
  },
  transferSearchIndex: {
    call: (m) => m.search.transfer(SRCH, { target_account: team.team_id! }),
    method: "POST",
    path: `/v2/search/${SRCH}/transfer`,
    body: { target_account: team.team_id! },
  },
  renameSearchIndex: {
    call: (m) => m.search.rename(SRCH, { name: "docs-search-v2" }),
    method: "POST",
    path: `/v2/search/${SRCH}/rename`,
    body: { name: "docs-search-v2" },
  },
  listQStashUsers: {
    call: (m) => m.qstash.list(),
    method: "GET",
    path: "/v2/qstash/users",
    returns: [qstashUser],
  },
  getQStashUser: {
    call: (m) => m.qstash.get(QS),
    method: "GET",
    path: `/v2/qstash/user/${QS}`,
    returns: qstashUser,
  },
  resetQStashToken: {
    call: (m) => m.qstash.resetToken(QS),
    method: "POST",
    path: `/v2/qstash/rotate-token/${QS}`,
    returns: { ...qstashUser, token: "eyJuZXcifQ==" },
  },
  setQStashPlan: {
    call: (m) => m.qstash.setPlan(QS, { plan_name: "qstash_fixed_10m" }),
    method: "POST",
    path: `/v2/qstash/set-plan/${QS}`,
    body: { plan_name: "qstash_fixed_10m" },
  },
  getQStashStats: {
    call: (m) => m.qstash.stats(QS, { period: "30d" }),
    method: "GET",
    path: `/v2/qstash/stats/${QS}`,
    query: { period: "30d" },
    returns: qstashStats,
  },
  getQStashIPv4: {
    call: (m) => m.qstash.ipv4(),
    method: "GET",
    path: "/v2/qstash/ipv4",
    returns: ["3.125.136.186/32", "52.28.41.12/32"],
  },
  moveQStashToTeam: {
    call: (m) => m.qstash.moveToTeam({ qstash_id: QS, target_team_id: team.team_id! }),
    method: "POST",
    path: "/v2/qstash/move-to-team",
    body: { qstash_id: QS, target_team_id: team.team_id! },
  },
  updateQStashBudget: {
    call: (m) => m.qstash.updateBudget(QS, { budget: 20 }),
    method: "PATCH",
    path: `/v2/qstash/update-budget/${QS}`,
    body: { budget: 20 },
  },
  enableQStashProdPack: {
    call: (m) => m.qstash.enableProdPack(QS),
    method: "POST",
    path: `/v2/qstash/enable-prodpack/${QS}`,
  },
  disableQStashProdPack: {
    call: (m) => m.qstash.disableProdPack(QS),
    method: "POST",
    path: `/v2/qstash/disable-prodpack/${QS}`,
  },
};

/** The cases as `[operationId, case]` pairs, for `it.each`. */
export const entries = Object.entries(cases) as [OperationId, Case][];
