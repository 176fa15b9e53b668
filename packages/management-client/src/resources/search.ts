import type { RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type {
  CreateSearchIndexRequest,
  GlobalStats,
  RenameRequest,
  SearchIndex,
  StatsQuery,
  TransferRequest,
  VectorStats,
} from "../types.js";

/** Search indexes of the account. */
export interface Search {
  /**
   * Creates a search index (not retried on 5xx or timeouts: a repeat creates a second one). Only
   * `free` and `payg` can be chosen as `type` for now.
   * @example
   * const index = await m.search.create({ name: "docs", region: "eu-west-1", type: "payg" });
   */
  create(body: CreateSearchIndexRequest, options?: RequestOptions): Promise<SearchIndex>;
  /** Lists the search indexes of the account. */
  list(options?: RequestOptions): Promise<SearchIndex[]>;
  /** Returns a search index with its current tokens. */
  get(id: string, options?: RequestOptions): Promise<SearchIndex>;
  /** Deletes a search index with all its data, irreversibly. */
  delete(id: string, options?: RequestOptions): Promise<void>;
  /** Renames a search index (the service answers an acknowledgement, not the record). */
  rename(id: string, body: RenameRequest, options?: RequestOptions): Promise<void>;
  /**
   * Replaces both tokens of the index (not retried on 5xx or timeouts); the new ones are not returned:
   * read them with `get`.
   */
  resetTokens(id: string, options?: RequestOptions): Promise<void>;
  /** Moves the index into a team (`target_account`: the team's id). Not retried on 5xx or timeouts. */
  transfer(id: string, body: TransferRequest, options?: RequestOptions): Promise<void>;
  /** Usage counters, costs and time series of one index over `period` (default `1h`). */
  stats(id: string, query?: StatsQuery, options?: RequestOptions): Promise<VectorStats>;
  /** Totals over all the account's search indexes. */
  globalStats(options?: RequestOptions): Promise<GlobalStats>;
}

/** Builds the `search` resource group over the shared context. */
export function createSearch(ctx: Context): Search {
  return {
    create: async (body, options) => ctx.request("createSearchIndex", { body }, options),
    list: async (options) => ctx.request("listSearchIndexes", {}, options),
    get: async (id, options) => ctx.request("getSearchIndex", { path: { id } }, options),
    delete: async (id, options) => ctx.request("deleteSearchIndex", { path: { id } }, options),
    rename: async (id, body, options) =>
      ctx.request("renameSearchIndex", { path: { id }, body }, options),
    resetTokens: async (id, options) =>
      ctx.request("resetSearchPassword", { path: { id } }, options),
    transfer: async (id, body, options) =>
      ctx.request("transferSearchIndex", { path: { id }, body }, options),
    stats: async (id, query, options) =>
      ctx.request("getSearchIndexStats", { path: { id }, query }, options),
    globalStats: async (options) => ctx.request("getGlobalSearchStats", {}, options),
  };
}
