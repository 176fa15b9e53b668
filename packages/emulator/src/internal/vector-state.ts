// Vector indexes: created with a region, plan, index type and models the document lists, moved to an
// account or a team, changed to another plan; the rest (read, rename, new tokens, delete, statistics) is
// the owned-index store's, shared with search indexes.
import {
  hostName,
  asObj,
  str,
  checkKnown,
  type Account,
  type Handlers,
  type ResourceAccess,
} from "./resource.js";
import { seconds, token, uuid, type Entropy } from "./entropy.js";
import { OwnedIndexes, type IndexRecord, type IndexSnapshot } from "./owned-indexes.js";

/** Vector indexes as snapshots carry them. */
export type VectorSnapshot = IndexSnapshot;

function planLimits(type: string): Record<string, number> {
  const paid = type !== "free";
  return {
    max_vector_count: paid ? 2_000_000_000 : 10_000,
    max_daily_updates: paid ? -1 : 10_000,
    max_daily_queries: paid ? -1 : 10_000,
    max_monthly_bandwidth: paid ? -1 : 50_000_000_000,
    max_writes_per_second: 1000,
    max_query_per_second: 1000,
    max_reads_per_request: 1000,
    max_writes_per_request: 1000,
    max_total_metadata_size: paid ? 50_000_000_000 : 1_000_000_000,
  };
}

const dimensions = (idx: IndexRecord): number =>
  typeof idx["dimension_count"] === "number" ? idx["dimension_count"] : 384;

/** Region suffix of an index endpoint. */
const REGION_SLUG: Record<string, string> = { "eu-west-1": "eu1", "us-central1": "usc1" };

/** The vector indexes of every account. */
export class VectorIndexes {
  readonly store: OwnedIndexes<IndexRecord>;
  readonly handlers: Handlers;

  constructor(
    private readonly access: ResourceAccess,
    private readonly entropy: Entropy,
  ) {
    this.store = new OwnedIndexes(access, entropy, "vector index", dimensions);
    this.handlers = {
      ...this.store.handlers({
        list: "listVectorIndexes",
        get: "getVectorIndex",
        delete: "deleteVectorIndex",
        rename: "renameVectorIndex",
        resetTokens: "resetVectorIndexTokens",
        resetAction: "reset its tokens",
        globalStats: "getGlobalVectorStats",
        stats: "getVectorIndexStats",
      }),
      createVectorIndex: ({ account, body }) => this.store.out(this.create(account, asObj(body))),
      setVectorIndexPlan: ({ account, params, body }) => {
        const idx = this.store.get(str(params["id"]), account, "change its plan");
        const plan = str(asObj(body)["target_plan"]);
        checkKnown("target_plan", plan, "TargetPlan");
        idx.type = plan;
        Object.assign(idx, planLimits(idx.type));
        return "OK";
      },
      transferVectorIndex: ({ account, params, body }) => {
        const idx = this.store.get(str(params["id"]), account, "transfer it");
        const target = str(asObj(body)["target_account"]);
        this.store.move(idx, this.access.destination(target, account, "target_account"));
        return "OK";
      },
    };
  }

  private create(account: Account, b: Record<string, unknown>): IndexRecord {
    const type = typeof b["type"] === "string" ? b["type"] : "payg";
    const region = str(b["region"]);
    const sim = str(b["similarity_function"]);
    const indexType = typeof b["index_type"] === "string" ? b["index_type"] : "DENSE";
    const dense = b["embedding_model"];
    const sparse = b["sparse_embedding_model"];
    checkKnown("region", region, "VectorRegion");
    checkKnown("type", type, "VectorPlan");
    checkKnown("index_type", indexType, "IndexType");
    // The document states no rule tying a model to the index type: any combination is kept.
    if (typeof dense === "string") checkKnown("embedding_model", dense, "EmbeddingModel");
    if (typeof sparse === "string") {
      checkKnown("sparse_embedding_model", sparse, "SparseEmbeddingModel");
    }
    return this.store.add(account, {
      id: uuid(this.entropy),
      customer_id: account.email,
      name: str(b["name"]),
      // The older spelling is accepted; the record uses the current one.
      similarity_function: sim === "EUCLIDIAN" ? "EUCLIDEAN" : sim,
      dimension_count: b["dimension_count"] as number,
      ...(typeof dense === "string" ? { embedding_model: dense } : {}),
      ...(typeof sparse === "string" ? { sparse_embedding_model: sparse } : {}),
      endpoint: `${hostName(this.entropy)}-${REGION_SLUG[region] ?? "us1"}-vector.upstash.io`,
      token: token(this.entropy, 36),
      read_only_token: token(this.entropy, 36),
      type,
      region,
      creation_time: seconds(this.entropy),
      ...planLimits(type),
      reserved_price: 0,
      index_type: indexType,
    });
  }
}
