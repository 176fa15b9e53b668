import type { components } from "./generated/schema.js";

type Schemas = components["schemas"];

/**
 * Checks at compile time that `values` lists every member of the spec's enum `T` and nothing else, so
 * a change to an enum in the spec breaks the build until it is mirrored here.
 */
function allOf<T extends string>() {
  return <const Values extends readonly T[]>(
    values: Values &
      ([Exclude<T, Values[number]>] extends [never]
        ? unknown
        : { missingFromSpecEnum: Exclude<T, Values[number]> }),
  ): Values => values;
}

/** Primary regions a global database can be created in. */
export const PRIMARY_REGIONS = allOf<Schemas["PrimaryRegion"]>()([
  "us-east-1",
  "us-west-1",
  "us-west-2",
  "eu-west-1",
  "eu-central-1",
  "ap-southeast-1",
  "ap-southeast-2",
  "sa-east-1",
]) satisfies readonly Schemas["PrimaryRegion"][];

/** Read regions a global database can be created with. */
export const READ_REGIONS = allOf<Schemas["ReadRegion"]>()([
  "us-east-1",
  "us-west-1",
  "us-west-2",
  "eu-west-1",
  "eu-central-1",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-northeast-1",
  "sa-east-1",
]) satisfies readonly Schemas["ReadRegion"][];

/** Read regions accepted by `databases.updateRegions` (`ap-northeast-1` is not). */
export const UPDATABLE_READ_REGIONS = allOf<Schemas["UpdatableReadRegion"]>()([
  "us-east-1",
  "us-west-1",
  "us-west-2",
  "eu-west-1",
  "eu-central-1",
  "ap-southeast-1",
  "ap-southeast-2",
  "sa-east-1",
]) satisfies readonly Schemas["UpdatableReadRegion"][];

/** Roles a team member can be given (`owner` belongs to the team's creator and is never given). */
export const MEMBER_ROLES = allOf<Schemas["MemberRole"]>()([
  "admin",
  "dev",
  "finance",
]) satisfies readonly Schemas["MemberRole"][];

/** Regions a vector index can be created in. */
export const VECTOR_REGIONS = allOf<Schemas["VectorRegion"]>()([
  "eu-west-1",
  "us-east-1",
]) satisfies readonly Schemas["VectorRegion"][];

/** Similarity functions of a vector index; `EUCLIDEAN` (live spelling) and `EUCLIDIAN` (seed) are both accepted. */
export const SIMILARITY_FUNCTIONS = allOf<Schemas["SimilarityFunction"]>()([
  "COSINE",
  "EUCLIDEAN",
  "EUCLIDIAN",
  "DOT_PRODUCT",
]) satisfies readonly Schemas["SimilarityFunction"][];

/** Embedding models a vector index can compute its vectors with. */
export const EMBEDDING_MODELS = allOf<Schemas["EmbeddingModel"]>()([
  "BGE_SMALL_EN_V1_5",
  "BGE_BASE_EN_V1_5",
  "BGE_LARGE_EN_V1_5",
  "BGE_M3",
  "BERT_BASE_UNCASED",
  "UAE_Large_V1",
  "ALL_MINILM_L6_V2",
  "MXBAI_EMBED_LARGE_V1",
]) satisfies readonly Schemas["EmbeddingModel"][];

/** Payment plans a new vector index can start on. */
export const VECTOR_PLANS = allOf<Schemas["VectorPlan"]>()([
  "payg",
  "fixed",
]) satisfies readonly Schemas["VectorPlan"][];

/** Plans an existing vector index can move to with `vector.setPlan`. */
export const TARGET_PLANS = allOf<Schemas["TargetPlan"]>()([
  "free",
  "payg",
  "fixed",
]) satisfies readonly Schemas["TargetPlan"][];
