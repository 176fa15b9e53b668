// State and business rules of the management API: databases, backups, teams and vector indexes here,
// search indexes and QStash users in their own modules, each owned by an account (its e-mail) or a
// team, visible only to that account or the team's members; every successful write is audited.
import { createEntropy, hex, seconds, token, uuid, type Entropy } from "./entropy.js";
import { operations, valueSets } from "../generated/operations.js";
import { AuditLog, type AuditEntry, type Touched } from "./audit-log.js";
import { HttpError } from "./http-error.js";
import { QStashUsers, type QStashSnapshot } from "./qstash-state.js";
import {
  asObj,
  hostName,
  str,
  type Account,
  type Handlers,
  type OperationInput,
  type ResourceAccess,
} from "./resource.js";
import { SearchIndexes, type SearchSnapshot } from "./search-state.js";
import { databaseStats, globalStats, indexStats, indexTotals, throughputVector } from "./stats.js";

export { HttpError };
export type { Account, OperationInput };

type Role = "owner" | "admin" | "dev" | "finance";

/**
 * What a role may do with a resource it can reach through a team (the seed names the roles; the
 * rules follow the service's published team documentation: admins and devs manage databases, only
 * owners and admins manage members, only the owner deletes the team, finance manages billing only).
 */
const CAN: Record<"use" | "members" | "deleteTeam", readonly Role[]> = {
  /** Read or change a team's databases, backups and vector indexes, move them in or out. */
  use: ["owner", "admin", "dev"],
  /** Add or remove members. */
  members: ["owner", "admin"],
  /** Delete the team. */
  deleteTeam: ["owner"],
};

interface DatabaseRecord extends Record<string, unknown> {
  database_id: string;
  database_name: string;
  region: string;
  primary_region: string;
  read_regions: string[];
  tls: boolean;
  password: string;
  rest_token: string;
  read_only_rest_token: string;
  eviction: boolean;
  auto_upgrade: boolean;
  daily_backup_enabled: boolean;
  user_email: string;
}

interface BackupRecord extends Record<string, unknown> {
  backup_id: string;
  name: string;
  database_id: string;
  customer_id: string;
  creation_time: number;
}

interface TeamRecord {
  team_id: string;
  team_name: string;
  copy_cc: boolean;
  members: [email: string, role: Role][];
}

interface IndexRecord extends Record<string, unknown> {
  id: string;
  name: string;
  token: string;
  read_only_token: string;
  type: string;
}

/** The whole management state as plain JSON (what snapshots carry). */
export interface ManagementSnapshot {
  databases: { owner: string; record: DatabaseRecord }[];
  backups: BackupRecord[];
  teams: TeamRecord[];
  indexes: { owner: string; record: IndexRecord }[];
  /** Search indexes (absent in snapshots of earlier versions: none). */
  searchIndexes?: SearchSnapshot;
  /** QStash users (absent in snapshots of earlier versions: the users of the start). */
  qstashUsers?: QStashSnapshot;
  /** The audit log (absent in snapshots of earlier versions: empty). */
  auditLogs?: AuditEntry[];
}

/** Management operations that change state: each successful one adds an audit entry. */
const WRITES = new Set(
  operations
    .filter((op) => op.api === "management" && op.method !== "GET")
    .map((op) => op.operationId),
);

/** Values the spec lists for a schema (`x-extensible-enum`, else `enum`): the ones the emulator knows. */
function known(schema: string): readonly string[] {
  return (valueSets.management as Readonly<Record<string, readonly string[]>>)[schema] ?? [];
}

/** Primary regions on the `gcp` platform; every other known region is on `aws`. */
const GCP_REGIONS = new Set(["us-central1", "us-east4", "europe-west1", "asia-northeast1"]);

/** Answers 400 unless `value` is one the spec lists for `schema`. */
function checkKnown(field: string, value: string, schema: string): void {
  const values = known(schema);
  if (!values.includes(value)) {
    throw new HttpError(
      400,
      `${field}: unknown value ${value}; the emulator knows ${values.join(", ")}`,
    );
  }
}

/** The management service. */
export class ManagementState {
  private databases = new Map<string, { owner: string; record: DatabaseRecord }>();
  private backups = new Map<string, BackupRecord>();
  private teams = new Map<string, TeamRecord>();
  private indexes = new Map<string, { owner: string; record: IndexRecord }>();
  private readonly audit: AuditLog;
  /** What the running write touched (for its audit entry). */
  private touched: Touched | undefined;

  /** The one rights check, shared with the resource modules. */
  private readonly access: ResourceAccess = {
    canUse: (owner, account) => this.canUse(owner, account),
    allow: (owner, account, what, action) => this.allow(owner, account, what, action),
    destination: (target, account, field) => this.destination(target, account, field),
    isTeam: (id) => this.teams.has(id),
    touch: (owner, entity) => {
      this.touched ??= { owner: owner ?? "", entities: [] };
      if (this.touched.owner === "" && owner !== undefined) this.touched.owner = owner;
      if (this.touched.entities.length < 3) this.touched.entities.push(entity);
    },
  };
  private readonly search: SearchIndexes;
  /** QStash users: every account starts with one per region; their tokens open the logs API. */
  readonly qstash: QStashUsers;

  /** Every operation's handler: this module's, the search indexes' and the QStash users'. */
  private readonly all: Handlers;

  constructor(
    accounts: readonly Account[] = [],
    private readonly entropy: Entropy = createEntropy(),
  ) {
    this.audit = new AuditLog(entropy);
    this.search = new SearchIndexes(this.access, entropy);
    this.qstash = new QStashUsers(this.access, accounts, entropy);
    this.all = { ...this.handlers, ...this.search.handlers, ...this.qstash.handlers };
  }

  // --- state -------------------------------------------------------------------------------------

  snapshot(): ManagementSnapshot {
    return {
      ...structuredClone({
        databases: [...this.databases.values()],
        backups: [...this.backups.values()],
        teams: [...this.teams.values()],
        indexes: [...this.indexes.values()],
      }),
      searchIndexes: this.search.snapshot(),
      qstashUsers: this.qstash.snapshot(),
      auditLogs: this.audit.snapshot(),
    };
  }

  /** Replaces the state: every map is built before any is replaced (all or nothing). */
  restore(snap: ManagementSnapshot): void {
    const s = structuredClone(snap);
    const databases = new Map((s.databases ?? []).map((d) => [d.record.database_id, d]));
    const backups = new Map((s.backups ?? []).map((b) => [b.backup_id, b]));
    const teams = new Map((s.teams ?? []).map((t) => [t.team_id, t]));
    const indexes = new Map((s.indexes ?? []).map((i) => [i.record.id, i]));
    this.databases = databases;
    this.backups = backups;
    this.teams = teams;
    this.indexes = indexes;
    this.search.restore(s.searchIndexes ?? []);
    if (s.qstashUsers) this.qstash.restore(s.qstashUsers);
    else this.qstash.reset();
    this.audit.restore(s.auditLogs ?? []);
  }

  reset(): void {
    this.restore({ databases: [], backups: [], teams: [], indexes: [] });
  }

  /** Deletes a database and its backups as another team member would (no audit entry for anyone). */
  dropDatabase(id: string): void {
    if (!this.databases.delete(id)) throw new TypeError(`databaseId: no database ${id}`);
    for (const [backup, b] of this.backups) if (b.database_id === id) this.backups.delete(backup);
  }

  // --- visibility and roles ----------------------------------------------------------------------

  private role(team: TeamRecord, email: string): Role | undefined {
    return team.members.find(([e]) => e === email)?.[1];
  }

  /** The caller's role over what `owner` (an e-mail or a team id) owns: `owner` of its own things. */
  private roleOver(owner: string, account: Account): Role | undefined {
    if (owner === account.email) return "owner";
    const team = this.teams.get(owner);
    return team === undefined ? undefined : this.role(team, account.email);
  }

  /** Whether the caller may read and change what `owner` owns (listings show only those). */
  private canUse(owner: string, account: Account): boolean {
    const role = this.roleOver(owner, account);
    return role !== undefined && CAN.use.includes(role);
  }

  /**
   * Checks the caller may `action` a resource of `owner`: 404 when it cannot see it at all (exactly
   * like a missing id), 403 when its team role does not allow it.
   */
  private allow(owner: string, account: Account, what: string, action: string): void {
    const role = this.roleOver(owner, account);
    if (role === undefined) throw new HttpError(404, `${what} not found`);
    if (!CAN.use.includes(role)) {
      throw new HttpError(
        403,
        `${what}: a ${role} member of team ${owner} cannot ${action}; ${CAN.use.join(", ")} can`,
      );
    }
  }

  private database(id: string, account: Account, action: string): DatabaseRecord {
    const db = this.databases.get(id);
    // Another account's database answers exactly like a missing one.
    if (!db) throw new HttpError(404, `database ${id} not found`);
    this.allow(db.owner, account, `database ${id}`, action);
    this.access.touch(db.owner, id);
    return db.record;
  }

  private team(id: string, account: Account): TeamRecord {
    const team = this.teams.get(id);
    if (!team || this.role(team, account.email) === undefined)
      throw new HttpError(404, `team ${id} not found`);
    // Changes to the team itself are logged under the caller (a deleted team's entries go with it).
    this.access.touch(undefined, id);
    return team;
  }

  private index(id: string, account: Account, action: string): IndexRecord {
    const idx = this.indexes.get(id);
    if (!idx) throw new HttpError(404, `vector index ${id} not found`);
    this.allow(idx.owner, account, `vector index ${id}`, action);
    this.access.touch(idx.owner, id);
    return idx.record;
  }

  /** A destination for a move or transfer: the caller's own account or a team it may use. */
  private destination(target: string, account: Account, field: string): string {
    if (target === account.email) return target;
    const team = this.teams.get(target);
    const role = team && this.role(team, account.email);
    if (role === undefined) throw new HttpError(404, `${field}: team ${target} not found`);
    if (!CAN.use.includes(role)) {
      throw new HttpError(
        403,
        `${field}: a ${role} member of team ${target} cannot move resources into it; ${CAN.use.join(", ")} can`,
      );
    }
    return target;
  }

  private require(team: TeamRecord, account: Account, can: "members" | "deleteTeam"): void {
    const role = this.role(team, account.email) as Role;
    if (!CAN[can].includes(role)) {
      const action = can === "members" ? "change its members" : "delete it";
      throw new HttpError(
        403,
        `team ${team.team_id}: a ${role} member cannot ${action}; only ${CAN[can].join(" or ")} can`,
      );
    }
  }

  // --- operations, by operationId ------------------------------------------------------------------

  /** Runs one operation; returns the JSON body of the 200 answer. A successful write is audited. */
  run(operationId: string, input: OperationInput): unknown {
    const handler = this.all[operationId];
    if (!handler)
      throw new HttpError(404, `operation ${operationId} is not implemented by the emulator`);
    this.touched = undefined;
    const out = handler(input);
    if (WRITES.has(operationId)) {
      const touched = this.touched as Touched | undefined;
      // A team's resource is logged under the team; anything else (a deleted team included) under the caller.
      const team = touched !== undefined && this.teams.has(touched.owner);
      this.audit.record({
        operationId,
        owner: team ? (touched?.owner as string) : input.account.email,
        actor: input.account.email,
        entities: touched?.entities ?? [],
        ip: input.ip ?? "127.0.0.1",
      });
    }
    this.touched = undefined;
    return out;
  }

  /** Owners whose audit entries the caller reads: its own, and teams it owns or administers. */
  private auditOwners(account: Account): string[] {
    const teams = [...this.teams.values()]
      .filter((t) => CAN.members.includes(this.role(t, account.email) as Role))
      .map((t) => t.team_id);
    return [account.email, ...teams];
  }

  private readonly handlers: Handlers = {
    createDatabase: ({ account, body }) => this.createDatabase(account, asObj(body)),
    getDatabase: ({ account, params, query }) => {
      const db = this.database(str(params["id"]), account, "read it");
      return query["credentials"] === "hide" ? hide(db) : db;
    },
    deleteDatabase: ({ account, params }) => {
      const db = this.database(str(params["id"]), account, "delete it");
      this.databases.delete(db.database_id);
      for (const [id, b] of this.backups)
        if (b.database_id === db.database_id) this.backups.delete(id);
      return "OK";
    },
    listDatabases: ({ account }) =>
      [...this.databases.values()]
        .filter((d) => this.canUse(d.owner, account))
        .map((d) => d.record),
    getDatabaseStats: ({ account, params }) =>
      databaseStats(
        this.database(str(params["id"]), account, "read its statistics").database_id,
        this.entropy.now(),
      ),
    changePlan: ({ account, params, body }) => {
      const db = this.database(str(params["id"]), account, "change its plan");
      const b = asObj(body);
      if (b["database_id"] !== undefined && b["database_id"] !== db.database_id) {
        throw new HttpError(
          400,
          `database_id: repeats the path's id when given (${db.database_id}), not ${str(b["database_id"])}`,
        );
      }
      const plan = str(b["plan_name"]);
      checkKnown("plan_name", plan, "DatabasePlan");
      Object.assign(db, planFields(plan), { last_plan_upgrade_time: seconds(this.entropy) });
      if (typeof b["auto_upgrade"] === "boolean") db.auto_upgrade = b["auto_upgrade"];
      if (typeof b["prod_pack_enabled"] === "boolean")
        db["prod_pack_enabled"] = b["prod_pack_enabled"];
      return "OK";
    },
    updateBudget: ({ account, params, body }) => {
      // The unit is unconfirmed (dollars on create, cents in the official CLI): stored as given.
      this.database(str(params["id"]), account, "change its budget")["budget"] =
        asObj(body)["budget"];
      return "OK";
    },
    listAuditLogs: ({ account }) => this.audit.list(this.auditOwners(account)),
    renameDatabase: ({ account, params, body }) => {
      const db = this.database(str(params["id"]), account, "rename it");
      db.database_name = str(asObj(body)["name"]);
      return db;
    },
    resetDatabasePassword: ({ account, params }) => {
      const db = this.database(str(params["id"]), account, "reset its password");
      db.password = token(this.entropy, 16);
      db.rest_token = token(this.entropy, 36);
      db.read_only_rest_token = token(this.entropy, 36);
      return db;
    },
    enableDatabaseTls: ({ account, params }) => {
      const db = this.database(str(params["id"]), account, "enable TLS");
      db.tls = true;
      return db;
    },
    enableDatabaseEviction: (i) => this.setFlag(i, "eviction", true, "enable eviction"),
    disableDatabaseEviction: (i) => this.setFlag(i, "eviction", false, "disable eviction"),
    enableDatabaseAutoUpgrade: (i) => {
      const db = this.database(str(i.params["id"]), i.account, "enable auto upgrade");
      // The service answers an error when the state already matches (clients treat it as success).
      if (db.auto_upgrade) {
        throw new HttpError(400, `auto upgrade is already enabled for database ${db.database_id}`);
      }
      db.auto_upgrade = true;
      return "OK";
    },
    disableDatabaseAutoUpgrade: (i) => {
      const db = this.database(str(i.params["id"]), i.account, "disable auto upgrade");
      if (!db.auto_upgrade) {
        throw new HttpError(400, `auto upgrade is already disabled for database ${db.database_id}`);
      }
      db.auto_upgrade = false;
      return "OK";
    },
    enableDailyBackup: (i) =>
      this.setFlag(i, "daily_backup_enabled", true, "enable its daily backup"),
    disableDailyBackup: (i) =>
      this.setFlag(i, "daily_backup_enabled", false, "disable its daily backup"),
    updateDatabaseRegions: ({ account, params, body }) => {
      const db = this.database(str(params["id"]), account, "change its regions");
      if (db.region !== "global") {
        throw new HttpError(
          400,
          `read_regions: database ${db.database_id} is regional (${db.region}); only global databases have read regions`,
        );
      }
      const regions = [...new Set(asObj(body)["read_regions"] as string[])];
      for (const r of regions) checkKnown("read_regions", r, "ReadRegion");
      if (regions.includes(db.primary_region)) {
        throw new HttpError(
          400,
          `read_regions: must not include the primary region ${db.primary_region}`,
        );
      }
      db.read_regions = regions;
      db["all_members"] = [db.primary_region, ...regions];
      db["replicas"] = 1 + regions.length;
      return "OK";
    },
    moveDatabaseToTeam: ({ account, body }) => {
      const b = asObj(body);
      const db = this.database(str(b["database_id"]), account, "move it");
      const owner = this.destination(str(b["team_id"]), account, "team_id");
      (this.databases.get(db.database_id) as { owner: string }).owner = owner;
      return "OK";
    },
    createBackup: ({ account, params, body }) => {
      const db = this.database(str(params["id"]), account, "back it up");
      const backup: BackupRecord = {
        backup_id: uuid(this.entropy),
        name: str(asObj(body)["name"]),
        database_id: db.database_id,
        customer_id: account.email,
        creation_time: seconds(this.entropy),
        state: "completed",
        backup_size: 1024 * (1 + ((this.entropy.bytes(2)[0] ?? 0) << 4)),
        // Strings on the wire, not booleans.
        daily_backup: "false",
        hourly_backup: "false",
        internal_backup_tag: `backup-${hex(this.entropy, 6)}`,
      };
      this.backups.set(backup.backup_id, backup);
      this.access.touch(undefined, backup.backup_id);
      return "OK";
    },
    deleteBackup: ({ account, params }) => {
      const db = this.database(str(params["id"]), account, "delete its backups");
      const backup = this.backups.get(str(params["backup_id"]));
      if (!backup || backup.database_id !== db.database_id) {
        throw new HttpError(
          404,
          `backup ${str(params["backup_id"])} of database ${db.database_id} not found`,
        );
      }
      this.backups.delete(backup.backup_id);
      return "OK";
    },
    listBackups: ({ account, params }) => {
      const db = this.database(str(params["id"]), account, "list its backups");
      return [...this.backups.values()].filter((b) => b.database_id === db.database_id);
    },
    restoreBackup: ({ account, params, body }) => {
      const db = this.database(str(params["id"]), account, "restore it");
      const id = str(asObj(body)["backup_id"]);
      const backup = this.backups.get(id);
      const owner = backup && this.databases.get(backup.database_id);
      if (!backup || !owner || !this.canUse(owner.owner, account)) {
        throw new HttpError(404, `backup_id: backup ${id} not found`);
      }
      if (backup.database_id !== db.database_id) {
        throw new HttpError(
          400,
          `backup_id: backup ${id} belongs to database ${backup.database_id}; a database can only be restored from its own backups`,
        );
      }
      return "OK";
    },
    createTeam: ({ account, body }) => {
      const b = asObj(body);
      const team: TeamRecord = {
        team_id: uuid(this.entropy),
        team_name: str(b["team_name"]),
        copy_cc: b["copy_cc"] === true,
        members: [[account.email, "owner"]],
      };
      this.teams.set(team.team_id, team);
      this.access.touch(undefined, team.team_id);
      return { team_id: team.team_id, team_name: team.team_name, copy_cc: team.copy_cc };
    },
    deleteTeam: ({ account, params }) => {
      const team = this.team(str(params["id"]), account);
      this.require(team, account, "deleteTeam");
      const id = team.team_id;
      const dbs = [...this.databases.values()].filter((d) => d.owner === id).length;
      const idx = [...this.indexes.values()].filter((d) => d.owner === id).length;
      const search = this.search.ownedBy(id);
      const qstash = this.qstash.ownedBy(id);
      if (dbs + idx + search + qstash > 0) {
        throw new HttpError(
          400,
          `team ${id} still owns ${dbs} database(s), ${idx} vector index(es), ${search} search index(es) and ${qstash} QStash user(s); move or delete them first`,
        );
      }
      this.teams.delete(id);
      this.audit.forget(id);
      return "OK";
    },
    listTeams: ({ account }) =>
      [...this.teams.values()]
        .filter((t) => this.role(t, account.email) !== undefined)
        .map((t) => ({
          team_id: t.team_id,
          team_name: t.team_name,
          copy_cc: t.copy_cc,
          member_role: this.role(t, account.email),
        })),
    listTeamMembers: ({ account, params }) => {
      const team = this.team(str(params["team_id"]), account);
      return team.members.map(([email, role]) => member(team, email, role));
    },
    addTeamMember: ({ account, body }) => {
      const b = asObj(body);
      const team = this.team(str(b["team_id"]), account);
      this.require(team, account, "members");
      const email = str(b["member_email"]);
      if (this.role(team, email) !== undefined) {
        throw new HttpError(
          409,
          `member_email: ${email} is already a member of team ${team.team_id}`,
        );
      }
      const role = str(b["member_role"]) as Role;
      team.members.push([email, role]);
      return member(team, email, role);
    },
    removeTeamMember: ({ account, body }) => {
      const b = asObj(body);
      const team = this.team(str(b["team_id"]), account);
      this.require(team, account, "members");
      const email = str(b["member_email"]);
      const role = this.role(team, email);
      if (role === undefined) {
        throw new HttpError(404, `member_email: ${email} is not a member of team ${team.team_id}`);
      }
      if (role === "owner")
        throw new HttpError(
          400,
          `member_email: the owner of team ${team.team_id} cannot be removed`,
        );
      team.members = team.members.filter(([e]) => e !== email);
      return "OK";
    },
    createVectorIndex: ({ account, body }) =>
      withThroughput(this.createIndex(account, asObj(body)), this.entropy.now()),
    listVectorIndexes: ({ account }) =>
      this.visibleIndexes(account).map((i) => withThroughput(i, this.entropy.now())),
    getVectorIndex: ({ account, params }) =>
      withThroughput(this.index(str(params["id"]), account, "read it"), this.entropy.now()),
    getGlobalVectorStats: ({ account }) =>
      globalStats(this.visibleIndexes(account).map((i) => indexTotals(i.id, dimensions(i)))),
    getVectorIndexStats: ({ account, params, query }) => {
      const idx = this.index(str(params["id"]), account, "read its statistics");
      return indexStats(idx.id, query["period"], this.entropy.now(), dimensions(idx));
    },
    deleteVectorIndex: ({ account, params }) => {
      this.indexes.delete(this.index(str(params["id"]), account, "delete it").id);
      return "OK";
    },
    renameVectorIndex: ({ account, params, body }) => {
      this.index(str(params["id"]), account, "rename it").name = str(asObj(body)["name"]);
      return "OK";
    },
    resetVectorIndexTokens: ({ account, params }) => {
      const idx = this.index(str(params["id"]), account, "reset its tokens");
      idx.token = token(this.entropy, 36);
      idx.read_only_token = token(this.entropy, 36);
      return "OK";
    },
    setVectorIndexPlan: ({ account, params, body }) => {
      const idx = this.index(str(params["id"]), account, "change its plan");
      const plan = str(asObj(body)["target_plan"]);
      checkKnown("target_plan", plan, "TargetPlan");
      idx.type = plan;
      Object.assign(idx, planLimits(idx.type));
      return "OK";
    },
    transferVectorIndex: ({ account, params, body }) => {
      const idx = this.index(str(params["id"]), account, "transfer it");
      const owner = this.destination(str(asObj(body)["target_account"]), account, "target_account");
      (this.indexes.get(idx.id) as { owner: string }).owner = owner;
      idx["customer_id"] = owner;
      return "OK";
    },
  };

  /** Sets a flag; repeating it is harmless (the service answers OK again). */
  private setFlag(
    { account, params }: OperationInput,
    flag: "eviction" | "daily_backup_enabled",
    value: boolean,
    action: string,
  ): string {
    const db = this.database(str(params["id"]), account, action);
    db[flag] = value;
    // `db_eviction` is the service's second name of the same flag.
    if (flag === "eviction") db["db_eviction"] = value;
    return "OK";
  }

  private createDatabase(account: Account, b: Record<string, unknown>): DatabaseRecord {
    // `database_name` is the current spelling, `name` the older one; either names the database.
    const name =
      typeof b["database_name"] === "string" ? b["database_name"] : (b["name"] as unknown);
    if (typeof name !== "string") {
      throw new HttpError(400, "database_name: is required (or the older spelling name)");
    }
    const region = typeof b["region"] === "string" ? b["region"] : "global";
    const primary = b["primary_region"];
    const reads = Array.isArray(b["read_regions"])
      ? [...new Set(b["read_regions"] as string[])]
      : [];
    const platform = typeof b["platform"] === "string" ? b["platform"] : undefined;
    if (platform !== undefined) checkKnown("platform", platform, "Platform");
    if (region === "global") {
      if (typeof primary !== "string") {
        throw new HttpError(400, "primary_region: is required for a global database");
      }
      checkKnown("primary_region", primary, "PrimaryRegion");
      const onGcp = GCP_REGIONS.has(primary);
      if (platform !== undefined && (platform === "gcp") !== onGcp) {
        throw new HttpError(
          400,
          `platform: ${primary} is a ${onGcp ? "gcp" : "aws"} region, not a ${platform} one`,
        );
      }
      for (const r of reads) checkKnown("read_regions", r, "ReadRegion");
      if (reads.includes(primary)) {
        throw new HttpError(400, `read_regions: must not include the primary region ${primary}`);
      }
    } else {
      // The older regional creation (deprecated): the region is one of the aws primary regions.
      const regional = known("PrimaryRegion").filter((r) => !GCP_REGIONS.has(r));
      if (!regional.includes(region)) {
        throw new HttpError(
          400,
          `region: unknown region ${region}; use global or one of ${regional.join(", ")}`,
        );
      }
      if (primary !== undefined)
        throw new HttpError(400, "primary_region: only a global database has a primary region");
      if (b["read_regions"] !== undefined) {
        throw new HttpError(400, "read_regions: only a global database has read regions");
      }
    }
    const plan = typeof b["plan"] === "string" ? b["plan"] : "payg";
    checkKnown("plan", plan, "DatabasePlan");
    const host = hostName(this.entropy);
    const record: DatabaseRecord = {
      database_id: uuid(this.entropy),
      database_name: name,
      region,
      port: 6379,
      creation_time: seconds(this.entropy),
      state: "active",
      endpoint: `${host}.upstash.io`,
      tls: b["tls"] === true,
      password: token(this.entropy, 16),
      user_email: account.email,
      rest_token: token(this.entropy, 36),
      read_only_rest_token: token(this.entropy, 36),
      primary_region: region === "global" ? String(primary) : region,
      read_regions: region === "global" ? reads : [],
      eviction: b["eviction"] === true,
      db_eviction: b["eviction"] === true,
      replicas: region === "global" ? 1 + reads.length : 1,
      auto_upgrade: false,
      consistent: false,
      budget: typeof b["budget"] === "number" ? b["budget"] : 360,
      daily_backup_enabled: false,
      prod_pack_enabled: false,
      db_acl_enabled: "false",
      db_max_clients: 1000,
      db_max_request_size: 10_485_760,
      db_max_entry_size: 104_857_600,
      db_max_commands_per_second: 1000,
      db_request_limit: 100_000_000_000,
      primary_members: [region === "global" ? String(primary) : region],
      all_members: region === "global" ? [String(primary), ...reads] : [region],
      db_type: "pebble",
      // Nanoseconds, as the service sends them.
      db_conn_idle_timeout: 21_600_000_000_000,
      db_lua_timeout: 250_000_000,
      db_store_max_idle: 900_000_000_000,
      db_lua_credits_per_min: 10_000_000_000,
      db_max_loads_per_sec: 1_000_000,
      // Strings holding "true"/"false", unlike the other flags.
      db_acl_default_user_status: "true",
      prometheus_enabled: "false",
      customer_id: account.email,
      securityAddons: {
        ipWhitelisting: false,
        vpcPeering: false,
        privateLink: false,
        tlsMutualAuth: false,
        encryptionAtRest: false,
      },
      ...planFields(plan),
      last_plan_upgrade_time: seconds(this.entropy),
    };
    this.databases.set(record.database_id, { owner: account.email, record });
    this.access.touch(account.email, record.database_id);
    return record;
  }

  private visibleIndexes(account: Account): IndexRecord[] {
    return [...this.indexes.values()]
      .filter((i) => this.canUse(i.owner, account))
      .map((i) => i.record);
  }

  private createIndex(account: Account, b: Record<string, unknown>): IndexRecord {
    const type = typeof b["type"] === "string" ? b["type"] : "payg";
    const region = str(b["region"]);
    const name = str(b["name"]);
    const sim = str(b["similarity_function"]);
    const indexType = typeof b["index_type"] === "string" ? b["index_type"] : "DENSE";
    const dense = b["embedding_model"];
    const sparse = b["sparse_embedding_model"];
    checkKnown("region", region, "VectorRegion");
    checkKnown("type", type, "VectorPlan");
    checkKnown("index_type", indexType, "IndexType");
    if (typeof dense === "string") {
      // The document states no rule tying the model to the index type: any combination is kept.
      checkKnown("embedding_model", dense, "EmbeddingModel");
    }
    if (typeof sparse === "string") {
      checkKnown("sparse_embedding_model", sparse, "SparseEmbeddingModel");
    }
    const record: IndexRecord = {
      id: uuid(this.entropy),
      customer_id: account.email,
      name,
      // The older spelling is accepted; the record uses the current one.
      similarity_function: sim === "EUCLIDIAN" ? "EUCLIDEAN" : sim,
      dimension_count: b["dimension_count"] as number,
      ...(typeof dense === "string" ? { embedding_model: dense } : {}),
      ...(typeof sparse === "string" ? { sparse_embedding_model: sparse } : {}),
      endpoint: `${hostName(this.entropy)}-${region === "eu-west-1" ? "eu1" : region === "us-central1" ? "usc1" : "us1"}-vector.upstash.io`,
      token: token(this.entropy, 36),
      read_only_token: token(this.entropy, 36),
      type,
      region,
      creation_time: seconds(this.entropy),
      ...planLimits(type),
      reserved_price: 0,
      index_type: indexType,
    };
    this.indexes.set(record.id, { owner: account.email, record });
    this.access.touch(account.email, record.id);
    return record;
  }
}

function hide(db: DatabaseRecord): DatabaseRecord {
  return { ...db, password: "***", rest_token: "***", read_only_rest_token: "***" };
}

function member(team: TeamRecord, email: string, role: Role): Record<string, unknown> {
  return {
    team_id: team.team_id,
    team_name: team.team_name,
    member_email: email,
    member_role: role,
    copy_cc: team.copy_cc,
  };
}

function planLimits(type: string): Record<string, number> {
  const paid = type !== "free";
  return {
    max_vector_count: paid ? 2_000_000_000 : 10_000,
    max_daily_updates: paid ? -1 : 10_000,
    max_daily_queries: paid ? -1 : 10_000,
    max_monthly_bandwidth: paid ? -1 : 50_000_000_000,
    max_writes_per_second: paid ? 1000 : 1000,
    max_query_per_second: paid ? 1000 : 1000,
    max_reads_per_request: paid ? 1000 : 1000,
    max_writes_per_request: paid ? 1000 : 1000,
    max_total_metadata_size: paid ? 50_000_000_000 : 1_000_000_000,
  };
}

/** Disk size of each fixed plan, bytes. */
const FIXED_SIZES: Record<string, [bytes: number, size: string]> = {
  fixed_250mb: [262_144_000, "S"],
  fixed_1gb: [1_073_741_824, "S"],
  fixed_5gb: [5_368_709_120, "M"],
  fixed_10gb: [10_737_418_240, "L"],
  fixed_50gb: [53_687_091_200, "XL"],
  fixed_100gb: [107_374_182_400, "XXL"],
  fixed_500gb: [536_870_912_000, "3XL"],
};

/** The fields of a database that follow its plan (on create and on changePlan). */
function planFields(plan: string): Record<string, unknown> {
  const fixed = FIXED_SIZES[plan];
  return {
    // The record's `type` is the plan family: fixed plans show as `paid`.
    type: plan === "free" || plan === "payg" ? plan : "paid",
    database_type: plan === "free" ? "Free" : plan === "payg" ? "Pay as You Go" : "Fixed",
    db_resource_size: fixed?.[1] ?? "S",
    db_disk_threshold: fixed?.[0] ?? (plan === "free" ? 268_435_456 : 107_374_182_400),
    db_memory_threshold: fixed?.[0] ?? (plan === "free" ? 268_435_456 : 3_221_225_472),
  };
}

const dimensions = (idx: IndexRecord): number =>
  typeof idx["dimension_count"] === "number" ? idx["dimension_count"] : 384;

/** An index as answered: `throughput_vector` (requests per minute, the last hour) is computed. */
const withThroughput = (idx: IndexRecord, nowMs: number): IndexRecord => ({
  ...idx,
  throughput_vector: throughputVector(idx.id, nowMs),
});
