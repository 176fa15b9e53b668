import type { RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type {
  CreateVectorIndexRequest,
  GlobalStats,
  RenameRequest,
  SetPlanRequest,
  StatsQuery,
  TransferRequest,
  VectorIndex,
  VectorStats,
} from "../types.js";

/** Vector indexes of the account. */
export interface Vector {
  /**
   * Creates a vector index (not retried on 5xx or timeouts).
   * @example
   * const index = await m.vector.create({ name: "docs", region: "us-east-1", similarity_function: "COSINE", dimension_count: 1536 });
   */
  create(body: CreateVectorIndexRequest, options?: RequestOptions): Promise<VectorIndex>;
  /** Lists the vector indexes of the account. */
  list(options?: RequestOptions): Promise<VectorIndex[]>;
  /** Returns a vector index. */
  get(id: string, options?: RequestOptions): Promise<VectorIndex>;
  /** Deletes a vector index and its vectors. */
  delete(id: string, options?: RequestOptions): Promise<void>;
  /** Renames a vector index. */
  rename(id: string, body: RenameRequest, options?: RequestOptions): Promise<void>;
  /** Replaces both the regular and the read-only token of the index (not retried on 5xx or timeouts). */
  resetTokens(id: string, options?: RequestOptions): Promise<void>;
  /** Moves the index to another payment plan. */
  setPlan(id: string, body: SetPlanRequest, options?: RequestOptions): Promise<void>;
  /**
   * Transfers the index to a team. Not retried on 5xx or timeouts: once the index has left the
   * caller's reach, a repeat answers 404 although the transfer happened.
   */
  transfer(id: string, body: TransferRequest, options?: RequestOptions): Promise<void>;
  /**
   * Usage counters, costs and time series of one index; `{ period: "7d" }` widens the series (the
   * service's default is `1h`).
   * @example
   * const { monthly_query_count, query_latency_99 } = await m.vector.stats(index.id!, { period: "1d" });
   */
  stats(id: string, query?: StatsQuery, options?: RequestOptions): Promise<VectorStats>;
  /** Totals over all the account's vector indexes. */
  globalStats(options?: RequestOptions): Promise<GlobalStats>;
}

/** Builds the `vector` resource group over the shared context. */
export function createVector(ctx: Context): Vector {
  return {
    create: async (body, options) => ctx.request("createVectorIndex", { body }, options),
    list: async (options) => ctx.request("listVectorIndexes", {}, options),
    get: async (id, options) => ctx.request("getVectorIndex", { path: { id } }, options),
    delete: async (id, options) => ctx.request("deleteVectorIndex", { path: { id } }, options),
    rename: async (id, body, options) =>
      ctx.request("renameVectorIndex", { path: { id }, body }, options),
    resetTokens: async (id, options) =>
      ctx.request("resetVectorIndexTokens", { path: { id } }, options),
    setPlan: async (id, body, options) =>
      ctx.request("setVectorIndexPlan", { path: { id }, body }, options),
    transfer: async (id, body, options) =>
      ctx.request("transferVectorIndex", { path: { id }, body }, options),
    stats: async (id, query, options) =>
      ctx.request("getVectorIndexStats", { path: { id }, query }, options),
    globalStats: async (options) => ctx.request("getGlobalVectorStats", {}, options),
  };
}
