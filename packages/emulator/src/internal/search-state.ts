// Search indexes: created on the plans the service lets one choose, moved only into a team; the rest
// (read, rename, new tokens, delete, statistics) is the owned-index store's, shared with vector indexes.
import { seconds, token, uuid, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import { OwnedIndexes, type IndexRecord, type IndexSnapshot } from "./owned-indexes.js";
import {
  asObj,
  hostName,
  str,
  type Account,
  type Handlers,
  type ResourceAccess,
} from "./resource.js";

/** A search index as stored (`throughput_vector` is computed when read). */
export interface SearchRecord extends IndexRecord {
  customer_id: string;
  region: string;
}

/** Search indexes as snapshots carry them. */
export type SearchSnapshot = IndexSnapshot<SearchRecord>;

/** Plans a search index can be created on today (`fixed` is listed by the service, not choosable). */
const CHOOSABLE = ["free", "payg"];

function limits(type: string): Record<string, number> {
  const free = type === "free";
  return {
    max_vector_count: free ? 10_000 : 100_000_000,
    max_monthly_reranks: free ? 100 : -1,
    max_daily_updates: free ? 10_000 : -1,
    max_daily_queries: free ? 10_000 : -1,
    max_monthly_bandwidth: free ? 10_000_000_000 : -1,
    max_writes_per_second: 1000,
    max_query_per_second: 1000,
    max_reads_per_request: 1000,
    max_writes_per_request: 1000,
  };
}

/** The search indexes of every account. */
export class SearchIndexes {
  readonly store: OwnedIndexes<SearchRecord>;
  readonly handlers: Handlers;

  constructor(
    private readonly access: ResourceAccess,
    private readonly entropy: Entropy,
  ) {
    this.store = new OwnedIndexes<SearchRecord>(access, entropy, "search index");
    this.handlers = {
      ...this.store.handlers({
        list: "listSearchIndexes",
        get: "getSearchIndex",
        delete: "deleteSearchIndex",
        rename: "renameSearchIndex",
        resetTokens: "resetSearchPassword",
        resetAction: "reset its password",
        globalStats: "getGlobalSearchStats",
        stats: "getSearchIndexStats",
      }),
      createSearchIndex: ({ account, body }) => this.store.out(this.create(account, asObj(body))),
      transferSearchIndex: ({ account, params, body }) => {
        const idx = this.store.get(str(params["id"]), account, "transfer it");
        const target = str(asObj(body)["target_account"]);
        // A personal account never receives a search index; an unknown team answers 404 below.
        if (!this.access.isTeam(target) && target.includes("@")) {
          throw new HttpError(
            400,
            `target_account: a search index moves only into a team (give its team id), not to the account ${target}`,
          );
        }
        this.store.move(idx, this.access.destination(target, account, "target_account"));
        this.access.touch(undefined, idx.customer_id);
        return "OK";
      },
    };
  }

  private create(account: Account, b: Record<string, unknown>): SearchRecord {
    const type = str(b["type"]);
    if (!CHOOSABLE.includes(type)) {
      throw new HttpError(
        400,
        `type: a search index can be created on ${CHOOSABLE.join(" or ")} for now, not ${type}`,
      );
    }
    const region = str(b["region"]);
    return this.store.add(account, {
      id: uuid(this.entropy),
      customer_id: account.email,
      name: str(b["name"]),
      endpoint: `${hostName(this.entropy)}-${region === "eu-west-1" ? "eu1" : "us1"}`,
      type,
      region,
      vercel_email: "",
      token: token(this.entropy, 36),
      read_only_token: token(this.entropy, 36),
      ...limits(type),
      creation_time: seconds(this.entropy),
      input_enrichment_enabled: false,
    });
  }
}
