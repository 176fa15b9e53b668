import type { components, operations } from "./generated/schema.js";

type Schemas = components["schemas"];

/** A key-value database; unknown fields sent by the service are kept. `db_request_limit` can exceed 2^53 and then loses precision. */
export type Database = Schemas["Database"];
/** Statistics of a database: time series of `{ x, y }` points plus monthly totals. */
export type DatabaseStats = Schemas["DatabaseStats"];
/** One point of a statistics time series (`x` is a timestamp as text). */
export type StatsPoint = Schemas["StatsPoint"];
/** A backup of a database. */
export type Backup = Schemas["Backup"];
/** A team; listings may add the caller's `member_role`. */
export type Team = Schemas["Team"];
/** A member of a team with their role. */
export type TeamMember = Schemas["TeamMember"];
/** A vector index; `max_monthly_bandwidth` of -1 means unlimited. */
export type VectorIndex = Schemas["VectorIndex"];

/** One entry of the account's audit log (who did what, when). */
export type AuditLog = Schemas["AuditLog"];
/** Totals over all vector indexes, or over all search indexes. */
export type GlobalStats = Schemas["GlobalStats"];
/** Statistics of one vector or search index over a period. */
export type VectorStats = Schemas["VectorStats"];
/** A search index. */
export type SearchIndex = Schemas["SearchIndex"];
/** The account's QStash user of one region; `token` is the logs API's bearer token at that region's host. */
export type QStashUser = Schemas["QStashUser"];
/** Statistics of a QStash user. */
export type QStashStats = Schemas["QStashStats"];
/** The series of one command in database statistics (`command_counts`). */
export type CommandCount = Schemas["CommandCount"];

/** Platform of a database (`aws`, `gcp`, or any value the service adds). */
export type Platform = Schemas["Platform"];
/** Plan of a new database (`free`, `payg`, `fixed_*`, or any value the service adds). */
export type DatabasePlan = Schemas["DatabasePlan"];
/** Primary region of a global database (the known regions, or any region the service adds). */
export type PrimaryRegion = Schemas["PrimaryRegion"];
/** Read region of a global database. */
export type ReadRegion = Schemas["ReadRegion"];
/** Role a team member can be given. */
export type MemberRole = Schemas["MemberRole"];
/** Region of a vector index. */
export type VectorRegion = Schemas["VectorRegion"];
/** Similarity function of a vector index (`EUCLIDEAN` preferred; `EUCLIDIAN` accepted too). */
export type SimilarityFunction = Schemas["SimilarityFunction"];
/** Embedding model of a vector index. */
export type EmbeddingModel = Schemas["EmbeddingModel"];
/** Payment plan of a new vector index. */
export type VectorPlan = Schemas["VectorPlan"];
/** Plan an existing vector index can move to. */
export type TargetPlan = Schemas["TargetPlan"];

/**
 * Settings of a new database. `region` defaults to `global` on the service; `primary_region` and
 * `read_regions` apply to global databases only.
 */
export type CreateDatabaseRequest = Schemas["CreateDatabaseRequest"];
/** Query of `databases.get`: `credentials: "hide"` masks the secrets of the record. */
export type GetDatabaseQuery = NonNullable<operations["getDatabase"]["parameters"]["query"]>;
/** The new name of a database or vector index. */
export type RenameRequest = Schemas["RenameRequest"];
/** The read regions to set on a global database. */
export type UpdateRegionsRequest = Schemas["UpdateRegionsRequest"];
/** Which database moves under which team. */
export type MoveToTeamRequest = Schemas["MoveToTeamRequest"];
/** The backup to create. */
export type CreateBackupRequest = Schemas["CreateBackupRequest"];
/** The backup to restore from. */
export type RestoreBackupRequest = Schemas["RestoreBackupRequest"];
/** The team to create. */
export type CreateTeamRequest = Schemas["CreateTeamRequest"];
/** The member to add to a team. */
export type AddTeamMemberRequest = Schemas["AddTeamMemberRequest"];
/** The member to remove from a team. */
export type RemoveTeamMemberRequest = Schemas["RemoveTeamMemberRequest"];
/** Settings of a new vector index. */
export type CreateVectorIndexRequest = Schemas["CreateVectorIndexRequest"];
/** The plan a vector index moves to. */
export type SetPlanRequest = Schemas["SetPlanRequest"];
/** Where a vector index is transferred to. */
export type TransferRequest = Schemas["TransferRequest"];
/** Period of a statistics request (`1h`, `3h`, `12h`, `1d`, `3d`, `7d`, `30d`, or any value the service adds). */
export type StatsPeriod = Schemas["StatsPeriod"];
/** Query of the per-resource statistics methods: `period` (the service's default is `1h`). */
export type StatsQuery = NonNullable<operations["getVectorIndexStats"]["parameters"]["query"]>;
/** The plan a database moves to, with optional auto-upgrade and production-pack switches. */
export type ChangePlanRequest = Schemas["ChangePlanRequest"];
/** The monthly spending cap of a database (sent as given: the unit is unconfirmed). */
export type UpdateBudgetRequest = Schemas["UpdateBudgetRequest"];
/** Region of a search index. */
export type SearchRegion = Schemas["SearchRegion"];
/** Plan of a search index. */
export type SearchPlan = Schemas["SearchPlan"];
/** Settings of a new search index. */
export type CreateSearchIndexRequest = Schemas["CreateSearchIndexRequest"];
/** Plan a QStash user can move to. */
export type QStashPlan = Schemas["QStashPlan"];
/** The plan a QStash user moves to. */
export type SetQStashPlanRequest = Schemas["SetQStashPlanRequest"];
/** Which QStash user moves under which team. */
export type MoveQStashToTeamRequest = Schemas["MoveQStashToTeamRequest"];
/** The monthly budget of a QStash user, US dollars (`0` = no cap, otherwise 20 to 10000). */
export type UpdateQStashBudgetRequest = Schemas["UpdateQStashBudgetRequest"];
