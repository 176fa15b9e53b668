// The account audit log: one entry per successful management write (who, what, when, on what),
// kept per owner (an account e-mail or a team id), at most ENTRIES_PER_OWNER each, newest kept.
import { seconds, uuid, type Entropy } from "./entropy.js";

/** An entry as `listAuditLogs` answers it (the service's `AuditLog`). */
export interface AuditEntry {
  log_id: string;
  customer_id: string;
  actor: string;
  timestamp: number;
  action: number;
  action_string: string;
  source: string;
  entity: string;
  secondary_entity: string;
  third_entity: string;
  readable_format: string;
  ip: string;
  ttl: number;
  reason: string;
  notes: string;
}

/** Entries kept per owner; older ones are dropped first. */
export const ENTRIES_PER_OWNER = 1_000;
/** How long an entry is kept (the service keeps 7 days on the free plan), seconds. */
export const RETENTION_S = 7 * 86_400;

/**
 * The kinds of action, in the order of their codes (1, 2, …). The service documents one code
 * (`13`, `Delete Team`), which keeps its number here; the others are the emulator's own numbering.
 */
const ACTIONS: readonly (readonly [operationId: string, name: string])[] = [
  ["createDatabase", "Create Database"],
  ["deleteDatabase", "Delete Database"],
  ["renameDatabase", "Rename Database"],
  ["resetDatabasePassword", "Reset Database Password"],
  ["enableDatabaseTls", "Enable TLS"],
  ["enableDatabaseEviction", "Enable Eviction"],
  ["disableDatabaseEviction", "Disable Eviction"],
  ["enableDatabaseAutoUpgrade", "Enable Auto Upgrade"],
  ["disableDatabaseAutoUpgrade", "Disable Auto Upgrade"],
  ["updateDatabaseRegions", "Update Regions"],
  ["moveDatabaseToTeam", "Move Database To Team"],
  ["createTeam", "Create Team"],
  ["deleteTeam", "Delete Team"],
  ["addTeamMember", "Add Team Member"],
  ["removeTeamMember", "Remove Team Member"],
  ["createBackup", "Create Backup"],
  ["deleteBackup", "Delete Backup"],
  ["restoreBackup", "Restore Backup"],
  ["enableDailyBackup", "Enable Daily Backup"],
  ["disableDailyBackup", "Disable Daily Backup"],
  ["changePlan", "Change Plan"],
  ["updateBudget", "Update Budget"],
  ["createVectorIndex", "Create Vector Index"],
  ["deleteVectorIndex", "Delete Vector Index"],
  ["renameVectorIndex", "Rename Vector Index"],
  ["resetVectorIndexTokens", "Reset Vector Index Password"],
  ["setVectorIndexPlan", "Set Vector Index Plan"],
  ["transferVectorIndex", "Transfer Vector Index"],
  ["createSearchIndex", "Create Search Index"],
  ["deleteSearchIndex", "Delete Search Index"],
  ["renameSearchIndex", "Rename Search Index"],
  ["resetSearchPassword", "Reset Search Index Password"],
  ["transferSearchIndex", "Transfer Search Index"],
  ["resetQStashToken", "Reset QStash Token"],
  ["setQStashPlan", "Set QStash Plan"],
  ["moveQStashToTeam", "Move QStash To Team"],
  ["updateQStashBudget", "Update QStash Budget"],
  ["enableQStashProdPack", "Enable QStash Prod Pack"],
  ["disableQStashProdPack", "Disable QStash Prod Pack"],
];
const CODES = new Map(ACTIONS.map(([id, name], i) => [id, { code: i + 1, name }]));

/** Code and readable name of an operation's action (an unlisted one gets 0 and its operationId). */
export function actionOf(operationId: string): { code: number; name: string } {
  return CODES.get(operationId) ?? { code: 0, name: operationId };
}

/** What a write touched: the owner of the resource (e-mail or team id) and the resources' ids. */
export interface Touched {
  owner: string;
  entities: string[];
}

/** The audit log of every owner. */
export class AuditLog {
  private byOwner = new Map<string, AuditEntry[]>();

  constructor(private readonly entropy: Entropy) {}

  /** Records a successful write by `actor` under `owner`. */
  record(input: {
    operationId: string;
    owner: string;
    actor: string;
    entities: readonly string[];
    ip: string;
  }): void {
    const { code, name } = actionOf(input.operationId);
    const timestamp = seconds(this.entropy);
    const entry: AuditEntry = {
      log_id: uuid(this.entropy),
      customer_id: input.owner,
      actor: input.actor,
      timestamp,
      action: code,
      action_string: name,
      source: "API_KEY - emulator",
      entity: input.entities[0] ?? "NA",
      secondary_entity: input.entities[1] ?? "NA",
      third_entity: input.entities[2] ?? "NA",
      readable_format: "",
      ip: input.ip,
      ttl: timestamp + RETENTION_S,
      reason: "",
      notes: "",
    };
    const list = this.byOwner.get(input.owner) ?? [];
    list.push(entry);
    if (list.length > ENTRIES_PER_OWNER) list.splice(0, list.length - ENTRIES_PER_OWNER);
    this.byOwner.set(input.owner, list);
  }

  /** The entries of these owners still within retention, newest first. */
  list(owners: readonly string[]): AuditEntry[] {
    const now = seconds(this.entropy);
    // Each owner's list is oldest first: reversed, then a stable sort keeps same-second entries newest first.
    return owners
      .flatMap((o) => [...(this.byOwner.get(o) ?? [])].reverse())
      .filter((e) => e.ttl > now)
      .sort((a, b) => b.timestamp - a.timestamp);
  }

  /** Drops an owner's entries (a deleted team). */
  forget(owner: string): void {
    this.byOwner.delete(owner);
  }

  snapshot(): AuditEntry[] {
    return structuredClone([...this.byOwner.values()].flat());
  }

  restore(entries: readonly AuditEntry[]): void {
    this.byOwner = new Map();
    for (const e of structuredClone(entries)) {
      const list = this.byOwner.get(e.customer_id) ?? [];
      list.push(e);
      this.byOwner.set(e.customer_id, list);
    }
    for (const list of this.byOwner.values()) {
      list.sort((a, b) => a.timestamp - b.timestamp);
      if (list.length > ENTRIES_PER_OWNER) list.splice(0, list.length - ENTRIES_PER_OWNER);
    }
  }
}
