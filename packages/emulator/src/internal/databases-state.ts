// Databases: create (by the service's rules, in `database-record.ts`), read, change, move into a team,
// delete (their backups go with them), and their statistics; each owned by an account or a team.
import { seconds, token, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import { hide, newDatabase, planFields, type DatabaseRecord } from "./database-record.js";
import {
  asObj,
  checkKnown,
  str,
  type Account,
  type Handlers,
  type OperationInput,
  type ResourceAccess,
} from "./resource.js";
import { databaseStats } from "./stats.js";

export type { DatabaseRecord };

/** Databases as snapshots carry them. */
export type DatabaseSnapshot = { owner: string; record: DatabaseRecord }[];

/** The databases of every account and team. */
export class Databases {
  private databases = new Map<string, { owner: string; record: DatabaseRecord }>();
  readonly handlers: Handlers;

  constructor(
    private readonly access: ResourceAccess,
    private readonly entropy: Entropy,
    /** Called when a database is deleted (its backups go with it). */
    private readonly deleted: (id: string) => void,
  ) {
    this.handlers = {
      createDatabase: ({ account, body }) => this.create(account, asObj(body)),
      getDatabase: ({ account, params, query }) => {
        const db = this.database(str(params["id"]), account, "read it");
        return query["credentials"] === "hide" ? hide(db) : db;
      },
      deleteDatabase: ({ account, params }) => {
        const db = this.database(str(params["id"]), account, "delete it");
        this.databases.delete(db.database_id);
        this.deleted(db.database_id);
        return "OK";
      },
      listDatabases: ({ account }) =>
        [...this.databases.values()]
          .filter((d) => this.access.canUse(d.owner, account))
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
          throw new HttpError(
            400,
            `auto upgrade is already enabled for database ${db.database_id}`,
          );
        }
        db.auto_upgrade = true;
        return "OK";
      },
      disableDatabaseAutoUpgrade: (i) => {
        const db = this.database(str(i.params["id"]), i.account, "disable auto upgrade");
        if (!db.auto_upgrade) {
          throw new HttpError(
            400,
            `auto upgrade is already disabled for database ${db.database_id}`,
          );
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
        const owner = this.access.destination(str(b["team_id"]), account, "team_id");
        (this.databases.get(db.database_id) as { owner: string }).owner = owner;
        return "OK";
      },
    };
  }

  snapshot(): DatabaseSnapshot {
    return structuredClone([...this.databases.values()]);
  }

  restore(snap: DatabaseSnapshot): void {
    this.databases = new Map(structuredClone(snap).map((d) => [d.record.database_id, d]));
  }

  /** Number of databases `owner` owns. */
  ownedBy(owner: string): number {
    let n = 0;
    for (const d of this.databases.values()) if (d.owner === owner) n++;
    return n;
  }

  /** The owner of database `id`, if it exists. */
  ownerOf(id: string): string | undefined {
    return this.databases.get(id)?.owner;
  }

  /** Deletes a database and its backups as another team member would (no audit entry for anyone). */
  drop(id: string): void {
    if (!this.databases.delete(id)) throw new TypeError(`databaseId: no database ${id}`);
    this.deleted(id);
  }

  /** The database the caller may `action`, else 404 (unseen or missing) or 403 (team role). */
  database(id: string, account: Account, action: string): DatabaseRecord {
    const db = this.databases.get(id);
    // Another account's database answers exactly like a missing one.
    if (!db) throw new HttpError(404, `database ${id} not found`);
    this.access.allow(db.owner, account, `database ${id}`, action);
    this.access.touch(db.owner, id);
    return db.record;
  }

  private create(account: Account, b: Record<string, unknown>): DatabaseRecord {
    const record = newDatabase(this.entropy, account, b);
    this.databases.set(record.database_id, { owner: account.email, record });
    this.access.touch(account.email, record.database_id);
    return record;
  }

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
}
