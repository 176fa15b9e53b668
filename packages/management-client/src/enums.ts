// The values the spec lists, generated from the spec itself. Closed sets (roles, similarity functions)
// are everything the service accepts; the others are open (`x-extensible-enum`): the service adds
// values over time, the client sends any string, and these lists hold the values known today.
import {
  databasePlanKnownValues,
  embeddingModelKnownValues,
  indexTypeKnownValues,
  memberRoleValues,
  platformKnownValues,
  primaryRegionKnownValues,
  qStashPlanKnownValues,
  readRegionKnownValues,
  searchPlanKnownValues,
  searchRegionKnownValues,
  similarityFunctionValues,
  sparseEmbeddingModelKnownValues,
  statsPeriodKnownValues,
  targetPlanKnownValues,
  vectorPlanKnownValues,
  vectorRegionKnownValues,
} from "./generated/schema.js";

/** Primary regions known today (open: the service adds regions; any string is sent). */
export const PRIMARY_REGIONS = primaryRegionKnownValues;
/** Read regions known today, for `databases.create` and `databases.updateRegions` (open). */
export const READ_REGIONS = readRegionKnownValues;
/** Platforms a database can be created on (open). */
export const PLATFORMS = platformKnownValues;
/** Plans a database can be created with (open). */
export const DATABASE_PLANS = databasePlanKnownValues;
/** Roles a team member can be given (`owner` belongs to the team's creator and is never given). */
export const MEMBER_ROLES = memberRoleValues;
/** Regions a vector index can be created in (open). */
export const VECTOR_REGIONS = vectorRegionKnownValues;
/** Similarity functions of a vector index; `EUCLIDEAN` (current) and `EUCLIDIAN` (seed) are both accepted. */
export const SIMILARITY_FUNCTIONS = similarityFunctionValues;
/** Dense embedding models known today (open). */
export const EMBEDDING_MODELS = embeddingModelKnownValues;
/** Sparse embedding models known today (open). */
export const SPARSE_EMBEDDING_MODELS = sparseEmbeddingModelKnownValues;
/** Index types of a vector index: `DENSE`, `SPARSE`, `HYBRID` (open). */
export const INDEX_TYPES = indexTypeKnownValues;
/** Payment plans a new vector index can start on (open). */
export const VECTOR_PLANS = vectorPlanKnownValues;
/** Plans an existing vector index can move to with `vector.setPlan` (open). */
export const TARGET_PLANS = targetPlanKnownValues;
/** Regions a search index can be created in (open). */
export const SEARCH_REGIONS = searchRegionKnownValues;
/** Plans of a search index (open; only `free` and `payg` can be chosen at creation for now). */
export const SEARCH_PLANS = searchPlanKnownValues;
/** Plans a QStash user can move to with `qstash.setPlan` (open). */
export const QSTASH_PLANS = qStashPlanKnownValues;
/** Periods of the statistics methods (open; the service's default is `1h`). */
export const STATS_PERIODS = statsPeriodKnownValues;
