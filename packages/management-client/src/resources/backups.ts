import type { RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type { Backup, CreateBackupRequest, RestoreBackupRequest } from "../types.js";

/** Backups of a key-value database. */
export interface Backups {
  /** Starts a backup of the database (not retried on 5xx or timeouts); resolves once the service acknowledges. */
  create(databaseId: string, body: CreateBackupRequest, options?: RequestOptions): Promise<void>;
  /** Lists the backups of the database. */
  list(databaseId: string, options?: RequestOptions): Promise<Backup[]>;
  /** Deletes one backup of the database. */
  delete(databaseId: string, backupId: string, options?: RequestOptions): Promise<void>;
  /** Restores the data of the database from one of its own backups. */
  restore(databaseId: string, body: RestoreBackupRequest, options?: RequestOptions): Promise<void>;
  /** Backs the database up once a day. */
  enableDaily(databaseId: string, options?: RequestOptions): Promise<void>;
  /** Stops the daily backup of the database. */
  disableDaily(databaseId: string, options?: RequestOptions): Promise<void>;
}

/** Builds the `backups` resource group over the shared context. */
export function createBackups(ctx: Context): Backups {
  return {
    create: async (databaseId, body, options) =>
      ctx.request("createBackup", { path: { id: databaseId }, body }, options),
    list: async (databaseId, options) =>
      ctx.request("listBackups", { path: { id: databaseId } }, options),
    delete: async (databaseId, backupId, options) =>
      ctx.request(
        "deleteBackup",
        {
          path: {
            id: databaseId,
            backup_id: backupId,
          },
        },
        options,
      ),
    restore: async (databaseId, body, options) =>
      ctx.request("restoreBackup", { path: { id: databaseId }, body }, options),
    enableDaily: async (databaseId, options) =>
      ctx.request("enableDailyBackup", { path: { id: databaseId } }, options),
    disableDaily: async (databaseId, options) =>
      ctx.request("disableDailyBackup", { path: { id: databaseId } }, options),
  };
}
