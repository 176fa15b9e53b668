// The management service: one module per resource (databases, backups, teams, vector and search
// indexes, QStash users), all over the one rights check the teams module owns (`ResourceAccess`);
// runs an operation by its operationId and audits every successful write.
import { createEntropy, type Entropy } from "./entropy.js";
import { operations } from "../generated/operations.js";
import { AuditLog, type AuditEntry, type Touched } from "./audit-log.js";
import { Backups, type BackupRecord } from "./backups-state.js";
import { Databases, type DatabaseRecord } from "./databases-state.js";
import { HttpError } from "./http-error.js";
import type { IndexRecord } from "./owned-indexes.js";
import { QStashUsers, type QStashSnapshot } from "./qstash-state.js";
import type { Account, Handlers, OperationInput } from "./resource.js";
import { SearchIndexes, type SearchSnapshot } from "./search-state.js";
import { Teams, type TeamRecord } from "./teams-state.js";
import { VectorIndexes } from "./vector-state.js";

export { HttpError };
export type { Account, OperationInput };

/** The whole management state as plain JSON (what snapshots carry). */
export interface ManagementSnapshot {
  databases: { owner: string; record: DatabaseRecord }[];
  backups: BackupRecord[];
  teams: TeamRecord[];
  /** Vector indexes. */
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

/** The management service. */
export class ManagementState {
  private readonly audit: AuditLog;
  /** What the running write touched (for its audit entry). */
  private touched: Touched | undefined;
  private readonly teams: Teams;
  private readonly databases: Databases;
  private readonly backups: Backups;
  private readonly vector: VectorIndexes;
  private readonly search: SearchIndexes;
  /** QStash users: every account starts with one per region; their tokens open the logs API. */
  readonly qstash: QStashUsers;
  /** Every operation's handler, from every resource module. */
  private readonly all: Handlers;

  constructor(accounts: readonly Account[] = [], entropy: Entropy = createEntropy()) {
    this.audit = new AuditLog(entropy);
    const access = (this.teams = new Teams(entropy, {
      touch: (owner, entity) => this.touch(owner, entity),
      owned: (id) => [
        ["database(s)", this.databases.ownedBy(id)],
        ["vector index(es)", this.vector.store.ownedBy(id)],
        ["search index(es)", this.search.store.ownedBy(id)],
        ["QStash user(s)", this.qstash.ownedBy(id)],
      ],
      deleted: (id) => this.audit.forget(id),
    }));
    this.databases = new Databases(access, entropy, (id) => this.backups.dropOf(id));
    this.backups = new Backups(access, entropy, this.databases);
    this.vector = new VectorIndexes(access, entropy);
    this.search = new SearchIndexes(access, entropy);
    this.qstash = new QStashUsers(access, accounts, entropy);
    this.all = {
      ...this.databases.handlers,
      ...this.backups.handlers,
      ...this.teams.handlers,
      ...this.vector.handlers,
      ...this.search.handlers,
      ...this.qstash.handlers,
      listAuditLogs: ({ account }) => this.audit.list(this.teams.auditOwners(account)),
    };
  }

  snapshot(): ManagementSnapshot {
    return {
      databases: this.databases.snapshot(),
      backups: this.backups.snapshot(),
      teams: this.teams.snapshot(),
      indexes: this.vector.store.snapshot(),
      searchIndexes: this.search.store.snapshot(),
      qstashUsers: this.qstash.snapshot(),
      auditLogs: this.audit.snapshot(),
    };
  }

  /** Replaces the state (the snapshot is copied whole first: all or nothing). */
  restore(snap: ManagementSnapshot): void {
    const s = structuredClone(snap);
    this.databases.restore(s.databases ?? []);
    this.backups.restore(s.backups ?? []);
    this.teams.restore(s.teams ?? []);
    this.vector.store.restore(s.indexes ?? []);
    this.search.store.restore(s.searchIndexes ?? []);
    if (s.qstashUsers) this.qstash.restore(s.qstashUsers);
    else this.qstash.reset();
    this.audit.restore(s.auditLogs ?? []);
  }

  reset(): void {
    this.restore({ databases: [], backups: [], teams: [], indexes: [] });
  }

  /** Deletes a database and its backups as another team member would (no audit entry for anyone). */
  dropDatabase(id: string): void {
    this.databases.drop(id);
  }

  private touch(owner: string | undefined, entity: string): void {
    this.touched ??= { owner: owner ?? "", entities: [] };
    if (this.touched.owner === "" && owner !== undefined) this.touched.owner = owner;
    if (this.touched.entities.length < 3) this.touched.entities.push(entity);
  }

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
      const team = touched !== undefined && this.teams.isTeam(touched.owner);
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
}
