import { ValidationError, type RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type {
  ChangePlanRequest,
  CreateDatabaseRequest,
  Database,
  DatabaseStats,
  GetDatabaseQuery,
  MoveToTeamRequest,
  RenameRequest,
  UpdateBudgetRequest,
  UpdateRegionsRequest,
} from "../types.js";

/** Key-value (Redis) databases of the account. */
export interface Databases {
  /**
   * Creates a global database named `database_name` in `primary_region` (plus optional `read_regions`);
   * regional creation (the deprecated `region`) is gone from the current reference. Not retried on 5xx
   * or timeouts, since a repeat could create two.
   * @example
   * const db = await m.databases.create({ database_name: "cache", primary_region: "eu-west-1", read_regions: ["us-east-1"] });
   */
  create(body: CreateDatabaseRequest, options?: RequestOptions): Promise<Database>;
  /** Returns a database; `{ credentials: "hide" }` masks its password and tokens as `***`. */
  get(id: string, query?: GetDatabaseQuery, options?: RequestOptions): Promise<Database>;
  /** Lists the databases of the account. */
  list(options?: RequestOptions): Promise<Database[]>;
  /** Deletes a database and its data; resolves once the service acknowledges. */
  delete(id: string, options?: RequestOptions): Promise<void>;
  /** Returns the time series and monthly totals of a database. */
  stats(id: string, options?: RequestOptions): Promise<DatabaseStats>;
  /** Renames a database and returns the updated record. */
  rename(id: string, body: RenameRequest, options?: RequestOptions): Promise<Database>;
  /** Replaces the password and REST tokens (not retried on 5xx or timeouts) and returns the record with the new ones. */
  resetPassword(id: string, options?: RequestOptions): Promise<Database>;
  /** Switches TLS on and returns the updated record. */
  enableTls(id: string, options?: RequestOptions): Promise<Database>;
  /** Lets the database evict keys when it is full. */
  enableEviction(id: string, options?: RequestOptions): Promise<void>;
  /** Stops the database from evicting keys. */
  disableEviction(id: string, options?: RequestOptions): Promise<void>;
  /** Lets the database move to a higher plan automatically. */
  enableAutoUpgrade(id: string, options?: RequestOptions): Promise<void>;
  /** Keeps the database on its plan. */
  disableAutoUpgrade(id: string, options?: RequestOptions): Promise<void>;
  /** Sets the read regions of a global database (they must not include its primary region). */
  updateRegions(id: string, body: UpdateRegionsRequest, options?: RequestOptions): Promise<void>;
  /** Moves a database under another team. */
  moveToTeam(body: MoveToTeamRequest, options?: RequestOptions): Promise<void>;
  /**
   * Moves a database to another plan, optionally switching auto-upgrade and the production pack.
   * Not retried on 5xx or timeouts (a repeat is not documented as safe): after an unknown outcome,
   * read the database with `get`.
   * @example
   * await m.databases.changePlan(db.database_id!, { plan_name: "fixed_1gb" });
   */
  changePlan(id: string, body: ChangePlanRequest, options?: RequestOptions): Promise<void>;
  /**
   * Sets the monthly spending cap of a database (the integer is sent as given; once the cap is hit the
   * database is throttled for the rest of the month). Safe to repeat.
   */
  updateBudget(id: string, body: UpdateBudgetRequest, options?: RequestOptions): Promise<void>;
}

/**
 * `read_regions` must not repeat `primary_region` (the service refuses it; the one rule of
 * `createDatabase` the spec can only state in prose). The client runs it in its one checked path, so
 * `databases.create`, `request("createDatabase")` and `raw.POST` refuse the same body.
 */
export function checkRegions(body: unknown): void {
  const { primary_region: primary, read_regions: reads } = (body ?? {}) as CreateDatabaseRequest;
  if (typeof primary === "string" && Array.isArray(reads) && reads.includes(primary)) {
    throw new ValidationError(
      "body.read_regions",
      `must not contain the primary region ${JSON.stringify(primary)}`,
    );
  }
}

/** Builds the `databases` resource group over the shared context. */
export function createDatabases(ctx: Context): Databases {
  return {
    create: async (body, options) => ctx.request("createDatabase", { body }, options),
    get: async (id, query, options) => ctx.request("getDatabase", { path: { id }, query }, options),
    list: async (options) => ctx.request("listDatabases", {}, options),
    delete: async (id, options) => ctx.request("deleteDatabase", { path: { id } }, options),
    stats: async (id, options) => ctx.request("getDatabaseStats", { path: { id } }, options),
    rename: async (id, body, options) =>
      ctx.request("renameDatabase", { path: { id }, body }, options),
    resetPassword: async (id, options) =>
      ctx.request("resetDatabasePassword", { path: { id } }, options),
    enableTls: async (id, options) => ctx.request("enableDatabaseTls", { path: { id } }, options),
    enableEviction: async (id, options) =>
      ctx.request("enableDatabaseEviction", { path: { id } }, options),
    disableEviction: async (id, options) =>
      ctx.request("disableDatabaseEviction", { path: { id } }, options),
    enableAutoUpgrade: async (id, options) =>
      ctx.request("enableDatabaseAutoUpgrade", { path: { id } }, options),
    disableAutoUpgrade: async (id, options) =>
      ctx.request("disableDatabaseAutoUpgrade", { path: { id } }, options),
    updateRegions: async (id, body, options) =>
      ctx.request("updateDatabaseRegions", { path: { id }, body }, options),
    moveToTeam: async (body, options) => ctx.request("moveDatabaseToTeam", { body }, options),
    changePlan: async (id, body, options) =>
      ctx.request("changePlan", { path: { id }, body }, options),
    updateBudget: async (id, body, options) =>
      ctx.request("updateBudget", { path: { id }, body }, options),
  };
}
