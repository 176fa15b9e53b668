import type { RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type {
  CreateVectorIndexRequest,
  RenameRequest,
  SetPlanRequest,
  TransferRequest,
  VectorIndex,
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
  /** Transfers the index to another account or team. */
  transfer(id: string, body: TransferRequest, options?: RequestOptions): Promise<void>;
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
  };
}
