// The one store of "owned indexes" (vector and search): records owned by an account (its e-mail) or a
// team, read and changed only through the one rights check, and the handlers both kinds share (list,
// read, delete, rename, new tokens, statistics), made here once and named per kind.
import { token, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import { asObj, str, type Account, type Handlers, type ResourceAccess } from "./resource.js";
import { globalStats, indexStats, indexTotals, throughputVector } from "./stats.js";

/** An index as stored (`throughput_vector` is computed when read). */
export interface IndexRecord extends Record<string, unknown> {
  id: string;
  name: string;
  token: string;
  read_only_token: string;
  type: string;
}

/** Indexes of one kind as snapshots carry them. */
export type IndexSnapshot<R extends IndexRecord = IndexRecord> = { owner: string; record: R }[];

/** The operationIds of one kind's shared handlers, and what the kind calls its token reset. */
export interface IndexOperations {
  list: string;
  get: string;
  delete: string;
  rename: string;
  resetTokens: string;
  /** The action named in a 403 of the token reset ("reset its tokens"). */
  resetAction: string;
  globalStats: string;
  stats: string;
}

/** The indexes of one kind ("vector index", "search index") of every account and team. */
export class OwnedIndexes<R extends IndexRecord> {
  private indexes = new Map<string, { owner: string; record: R }>();

  constructor(
    private readonly access: ResourceAccess,
    private readonly entropy: Entropy,
    /** What a message calls one index ("vector index"). */
    readonly kind: string,
    /** The dimension count the statistics use (search indexes: the default). */
    private readonly dimensions: (record: R) => number | undefined = () => undefined,
  ) {}

  snapshot(): IndexSnapshot<R> {
    return structuredClone([...this.indexes.values()]);
  }

  restore(snap: IndexSnapshot<R>): void {
    this.indexes = new Map(structuredClone(snap).map((i) => [i.record.id, i]));
  }

  /** Number of indexes `owner` owns (a team with indexes cannot be deleted). */
  ownedBy(owner: string): number {
    let n = 0;
    for (const i of this.indexes.values()) if (i.owner === owner) n++;
    return n;
  }

  /** Adds a new index owned by the caller and notes it for the audit entry. */
  add(account: Account, record: R): R {
    this.indexes.set(record.id, { owner: account.email, record });
    this.access.touch(account.email, record.id);
    return record;
  }

  /** The index the caller may `action`, else 404 (unseen or missing) or 403 (team role). */
  get(id: string, account: Account, action: string): R {
    const idx = this.indexes.get(id);
    if (!idx) throw new HttpError(404, `${this.kind} ${id} not found`);
    this.access.allow(idx.owner, account, `${this.kind} ${id}`, action);
    this.access.touch(idx.owner, id);
    return idx.record;
  }

  /** Gives the index (already checked with `get`) to `owner`. */
  move(record: R, owner: string): void {
    (this.indexes.get(record.id) as { owner: string }).owner = owner;
    (record as IndexRecord)["customer_id"] = owner;
  }

  visible(account: Account): R[] {
    return [...this.indexes.values()]
      .filter((i) => this.access.canUse(i.owner, account))
      .map((i) => i.record);
  }

  /** An index as answered: `throughput_vector` (requests per minute, the last hour) is computed. */
  readonly out = (r: R): R => ({
    ...r,
    throughput_vector: throughputVector(r.id, this.entropy.now()),
  });

  /** The handlers every kind shares, under the kind's operationIds. */
  handlers(ops: IndexOperations): Handlers {
    const dims = (r: R) => this.dimensions(r);
    return {
      [ops.list]: ({ account }) => this.visible(account).map(this.out),
      [ops.get]: ({ account, params }) => this.out(this.get(str(params["id"]), account, "read it")),
      [ops.delete]: ({ account, params }) => {
        this.indexes.delete(this.get(str(params["id"]), account, "delete it").id);
        return "OK";
      },
      [ops.rename]: ({ account, params, body }) => {
        this.get(str(params["id"]), account, "rename it").name = str(asObj(body)["name"]);
        return "OK";
      },
      [ops.resetTokens]: ({ account, params }) => {
        const idx = this.get(str(params["id"]), account, ops.resetAction);
        idx.token = token(this.entropy, 36);
        idx.read_only_token = token(this.entropy, 36);
        return "OK";
      },
      [ops.globalStats]: ({ account }) =>
        globalStats(this.visible(account).map((r) => indexTotals(r.id, dims(r)))),
      [ops.stats]: ({ account, params, query }) => {
        const idx = this.get(str(params["id"]), account, "read its statistics");
        return indexStats(idx.id, query["period"], this.entropy.now(), dims(idx));
      },
    };
  }
}
