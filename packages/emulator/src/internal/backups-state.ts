// Backups of a database: create, list, delete, restore a database from one of its own backups.
import { hex, seconds, uuid, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import type { Databases } from "./databases-state.js";
import { asObj, str, type Handlers, type ResourceAccess } from "./resource.js";

/** A backup as stored and answered. */
export interface BackupRecord extends Record<string, unknown> {
  backup_id: string;
  name: string;
  database_id: string;
  customer_id: string;
  creation_time: number;
}

/** The backups of every database. */
export class Backups {
  private backups = new Map<string, BackupRecord>();
  readonly handlers: Handlers;

  constructor(
    private readonly access: ResourceAccess,
    private readonly entropy: Entropy,
    /** The databases (a backup's rights are its database's). */
    private readonly databases: Pick<Databases, "database" | "ownerOf">,
  ) {
    this.handlers = {
      createBackup: ({ account, params, body }) => {
        const db = this.databases.database(str(params["id"]), account, "back it up");
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
        const db = this.databases.database(str(params["id"]), account, "delete its backups");
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
        const db = this.databases.database(str(params["id"]), account, "list its backups");
        return [...this.backups.values()].filter((b) => b.database_id === db.database_id);
      },
      restoreBackup: ({ account, params, body }) => {
        const db = this.databases.database(str(params["id"]), account, "restore it");
        const id = str(asObj(body)["backup_id"]);
        const backup = this.backups.get(id);
        const owner = backup && this.databases.ownerOf(backup.database_id);
        if (!backup || owner === undefined || !this.access.canUse(owner, account)) {
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
    };
  }

  snapshot(): BackupRecord[] {
    return structuredClone([...this.backups.values()]);
  }

  restore(snap: BackupRecord[]): void {
    this.backups = new Map(structuredClone(snap).map((b) => [b.backup_id, b]));
  }

  /** Deletes the backups of database `id` (deleted with it). */
  dropOf(id: string): void {
    for (const [backup, b] of this.backups) if (b.database_id === id) this.backups.delete(backup);
  }
}
