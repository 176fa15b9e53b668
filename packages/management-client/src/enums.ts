// The allowed values of the spec's enums, generated from the spec itself (openapi-typescript
// `enumValues`), under the names the client exports.
import {
  embeddingModelValues,
  memberRoleValues,
  primaryRegionValues,
  readRegionValues,
  similarityFunctionValues,
  targetPlanValues,
  updatableReadRegionValues,
  vectorPlanValues,
  vectorRegionValues,
} from "./generated/schema.js";

/** Primary regions a global database can be created in. */
export const PRIMARY_REGIONS = primaryRegionValues;
/** Read regions a global database can be created with. */
export const READ_REGIONS = readRegionValues;
/** Read regions accepted by `databases.updateRegions` (`ap-northeast-1` is not). */
export const UPDATABLE_READ_REGIONS = updatableReadRegionValues;
/** Roles a team member can be given (`owner` belongs to the team's creator and is never given). */
export const MEMBER_ROLES = memberRoleValues;
/** Regions a vector index can be created in. */
export const VECTOR_REGIONS = vectorRegionValues;
/** Similarity functions of a vector index; `EUCLIDEAN` (live spelling) and `EUCLIDIAN` (seed) are both accepted. */
export const SIMILARITY_FUNCTIONS = similarityFunctionValues;
/** Embedding models a vector index can compute its vectors with. */
export const EMBEDDING_MODELS = embeddingModelValues;
/** Payment plans a new vector index can start on. */
export const VECTOR_PLANS = vectorPlanValues;
/** Plans an existing vector index can move to with `vector.setPlan`. */
export const TARGET_PLANS = targetPlanValues;
