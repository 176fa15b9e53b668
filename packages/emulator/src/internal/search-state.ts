// Search indexes: create, read, rename, reset their tokens, transfer into a team, delete, and their
// usage statistics, each owned by an account (its e-mail) or a team, with the same rights as databases.
import { seconds, token, uuid, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import {
  asObj,
  hostName,
  str,
  type Account,
  type Handlers,
  type ResourceAccess,
} from "./resource.js";
import { globalStats, indexStats, indexTotals, throughputVector } from "./stats.js";

/** A search index as stored (`throughput_vector` is computed when read). */
export interface SearchRecord extends Record<string, unknown> {
  id: string;
  customer_id: string;
  name: string;
  type: string;
  region: string;
  token: string;
  read_only_token: string;
}

/** Search indexes as snapshots carry them. */
export type SearchSnapshot = { owner: string; record: SearchRecord }[];

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
  private indexes = new Map<string, { owner: string; record: SearchRecord }>();

  constructor(
    private readonly access: ResourceAccess,
    private readonly entropy: Entropy,
  ) {}

  snapshot(): SearchSnapshot {
    return structuredClone([...this.indexes.values()]);
  }

  restore(snap: SearchSnapshot): void {
    this.indexes = new Map(structuredClone(snap).map((i) => [i.record.id, i]));
  }

  /** Number of indexes `owner` owns (a team with indexes cannot be deleted). */
  ownedBy(owner: string): number {
    let n = 0;
    for (const i of this.indexes.values()) if (i.owner === owner) n++;
    return n;
  }

  private index(id: string, account: Account, action: string): SearchRecord {
    const idx = this.indexes.get(id);
    if (!idx) throw new HttpError(404, `search index ${id} not found`);
    this.access.allow(idx.owner, account, `search index ${id}`, action);
    this.access.touch(idx.owner, id);
    return idx.record;
  }

  private visible(account: Account): SearchRecord[] {
    return [...this.indexes.values()]
      .filter((i) => this.access.canUse(i.owner, account))
      .map((i) => i.record);
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
    const record: SearchRecord = {
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
    };
    this.indexes.set(record.id, { owner: account.email, record });
    this.access.touch(account.email, record.id);
    return record;
  }

  private readonly out = (r: SearchRecord): SearchRecord => ({
    ...r,
    throughput_vector: throughputVector(r.id, this.entropy.now()),
  });

  readonly handlers: Handlers = {
    listSearchIndexes: ({ account }) => this.visible(account).map(this.out),
    createSearchIndex: ({ account, body }) => this.out(this.create(account, asObj(body))),
    getSearchIndex: ({ account, params }) =>
      this.out(this.index(str(params["id"]), account, "read it")),
    deleteSearchIndex: ({ account, params }) => {
      this.indexes.delete(this.index(str(params["id"]), account, "delete it").id);
      return "OK";
    },
    renameSearchIndex: ({ account, params, body }) => {
      this.index(str(params["id"]), account, "rename it").name = str(asObj(body)["name"]);
      return "OK";
    },
    resetSearchPassword: ({ account, params }) => {
      const idx = this.index(str(params["id"]), account, "reset its password");
      idx.token = token(this.entropy, 36);
      idx.read_only_token = token(this.entropy, 36);
      return "OK";
    },
    transferSearchIndex: ({ account, params, body }) => {
      const idx = this.index(str(params["id"]), account, "transfer it");
      const target = str(asObj(body)["target_account"]);
      if (!this.access.isTeam(target)) {
        // A personal account never receives a search index; an unknown team answers 404 below.
        if (target.includes("@")) {
          throw new HttpError(
            400,
            `target_account: a search index moves only into a team (give its team id), not to the account ${target}`,
          );
        }
      }
      const owner = this.access.destination(target, account, "target_account");
      (this.indexes.get(idx.id) as { owner: string }).owner = owner;
      idx.customer_id = owner;
      this.access.touch(undefined, owner);
      return "OK";
    },
    getGlobalSearchStats: ({ account }) =>
      globalStats(this.visible(account).map((r) => indexTotals(r.id))),
    getSearchIndexStats: ({ account, params, query }) =>
      indexStats(
        this.index(str(params["id"]), account, "read its statistics").id,
        query["period"],
        this.entropy.now(),
      ),
  };
}
