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
