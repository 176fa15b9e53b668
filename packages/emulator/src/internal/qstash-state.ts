// QStash users: one per account and region from the start (the service has no operation that creates
// one), with their plans, budgets, production pack, statistics and the tokens the logs API accepts.
import { seconds, token, uuid, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import { asObj, str, type Account, type Handlers, type ResourceAccess } from "./resource.js";
import { sha256Hex } from "./sha256.js";
import { qstashStats } from "./stats.js";

/** A QStash user as stored and answered. */
export interface QStashRecord extends Record<string, unknown> {
  id: string;
  customer_id: string;
  token: string;
  read_only_token: string;
  region: string;
  type: string;
  budget: number;
  prod_pack_enabled: boolean;
}

/** QStash users as snapshots carry them. */
export type QStashSnapshot = { owner: string; record: QStashRecord }[];

/** The regions every account starts with a QStash user in. */
export const QSTASH_REGIONS = ["eu-central-1", "us-east-1"] as const;

/** The IPv4 blocks QStash sends requests from (`getQStashIPv4`; documentation addresses). */
const IPV4_BLOCKS = ["192.0.2.10/32", "198.51.100.20/32", "203.0.113.0/28"];

/** Budget rule of the service: `0` (no cap) or 20 to 10000 US dollars a month. */
const BUDGET = { min: 20, max: 10_000 } as const;

/** Requests a day by reserved plan (`qstash_fixed_1m` is a million a day). */
const FIXED_PER_DAY: Record<string, number> = {
  qstash_fixed_1m: 1_000_000,
  qstash_fixed_10m: 10_000_000,
  qstash_fixed_100m: 100_000_000,
};

function limits(type: string, reserved: string): Record<string, number> {
  const free = type === "free";
  const perDay = FIXED_PER_DAY[reserved] ?? (free ? 1_000 : 10_000_000);
  return {
    timeout: free ? 900 : 7_200,
    max_message_size: free ? 1_048_576 : 10_485_760,
    max_requests_per_day: perDay,
    max_requests_per_day_hard: free ? perDay : perDay * 2,
    max_requests_per_second: free ? 100 : 1_000,
    max_endpoints_per_topic: free ? 100 : 1_000,
    max_topics: free ? 10 : 1_000,
    max_schedules: free ? 10 : 1_000,
    max_queues: free ? 10 : 1_000,
    max_dlq_size: free ? 1_000 : 100_000,
    max_retries: free ? 3 : 20,
    max_events_size: free ? 1_000 : 100_000,
    max_dlq_retention_time_milis: (free ? 3 : 7) * 86_400_000,
    max_delay: free ? 604_800 : 31_536_000,
    max_parallelism: free ? 10 : 100,
    max_global_parallelism: free ? 100 : 1_000,
    max_bandwidth_per_second: free ? 1_048_576 : 104_857_600,
  };
}

const digest = sha256Hex;

/** A new QStash user of `email` in `region`, on the free plan. */
function newUser(e: Entropy, email: string, region: string): QStashRecord {
  const t = seconds(e);
  return {
    id: uuid(e),
    customer_id: email,
    token: token(e, 48),
    read_only_token: token(e, 48),
    active: true,
    state: "active",
    type: "free",
    region,
    reserved_type: "",
    reserved_price: 0,
    budget: 0,
    prod_pack_enabled: false,
    prometheus_enabled: "false",
    created_by: email,
    creation_time: t,
    deletion_time: 0,
    last_plan_upgrade_time: t,
    ...limits("free", ""),
  };
}

/** The QStash users of every account. */
export class QStashUsers {
  private users = new Map<string, { owner: string; record: QStashRecord }>();
  /** Digests of every current token (regular and read-only), for the logs API's Bearer check. */
  private tokens = new Set<string>();
  /** The users every account started with (what `reset()` goes back to). */
  private readonly initial: QStashSnapshot;

  constructor(
    private readonly access: ResourceAccess,
    accounts: readonly Account[],
    private readonly entropy: Entropy,
  ) {
    this.initial = accounts.flatMap((a) =>
      QSTASH_REGIONS.map((region) => ({
        owner: a.email,
        record: newUser(entropy, a.email, region),
      })),
    );
    this.reset();
  }

  snapshot(): QStashSnapshot {
    return structuredClone([...this.users.values()]);
  }

  restore(snap: QStashSnapshot): void {
    this.users = new Map(structuredClone(snap).map((u) => [u.record.id, u]));
    this.tokens = new Set();
    for (const { record } of this.users.values()) this.remember(record);
  }

  /** Back to the users of the start (the same ids and tokens). */
  reset(): void {
    this.restore(this.initial);
  }

  /** Number of users `owner` owns (a team with one cannot be deleted). */
  ownedBy(owner: string): number {
    let n = 0;
    for (const u of this.users.values()) if (u.owner === owner) n++;
    return n;
  }

  /** Whether `bearer` is the token (or read-only token) of a QStash user: the logs API accepts it. */
  accepts(bearer: string): boolean {
    // A set lookup on a SHA-256 digest: timing says nothing useful about the token.
    return this.tokens.has(digest(bearer));
  }

  private remember(r: QStashRecord): void {
    this.tokens.add(digest(r.token));
    this.tokens.add(digest(r.read_only_token));
  }

  private forget(r: QStashRecord): void {
    this.tokens.delete(digest(r.token));
    this.tokens.delete(digest(r.read_only_token));
  }

  private user(id: string, account: Account, action: string): QStashRecord {
    const u = this.users.get(id);
    if (!u) throw new HttpError(404, `QStash user ${id} not found`);
    this.access.allow(u.owner, account, `QStash user ${id}`, action);
    this.access.touch(u.owner, id);
    return u.record;
  }

  readonly handlers: Handlers = {
    listQStashUsers: ({ account }) =>
      [...this.users.values()]
        .filter((u) => this.access.canUse(u.owner, account))
        .map((u) => u.record),
    getQStashUser: ({ account, params }) => this.user(str(params["id"]), account, "read it"),
    resetQStashToken: ({ account, params }) => {
      const u = this.user(str(params["id"]), account, "reset its token");
      this.forget(u);
      u.token = token(this.entropy, 48);
      u.read_only_token = token(this.entropy, 48);
      this.remember(u);
      return u;
    },
    setQStashPlan: ({ account, params, body }) => {
      const u = this.user(str(params["id"]), account, "change its plan");
      const plan = str(asObj(body)["plan_name"]);
      if (plan === "free") {
        throw new HttpError(
          400,
          "plan_name: free is not a plan to change to; choose paid or a fixed plan",
        );
      }
      const reserved = plan in FIXED_PER_DAY ? plan : "";
      Object.assign(u, {
        type: "paid",
        reserved_type: reserved,
        reserved_price: reserved === "" ? 0 : Math.round(FIXED_PER_DAY[reserved]! / 5_000),
        last_plan_upgrade_time: seconds(this.entropy),
        ...limits("paid", reserved),
      });
      return "OK";
    },
    getQStashStats: ({ account, params, query }) =>
      qstashStats(
        this.user(str(params["id"]), account, "read its statistics").id,
        query["period"],
        this.entropy.now(),
      ),
    getQStashIPv4: () => [...IPV4_BLOCKS],
    moveQStashToTeam: ({ account, body }) => {
      const b = asObj(body);
      const u = this.user(str(b["qstash_id"]), account, "move it");
      const owner = this.access.destination(str(b["target_team_id"]), account, "target_team_id");
      (this.users.get(u.id) as { owner: string }).owner = owner;
      u.customer_id = owner;
      this.access.touch(undefined, owner);
      return "OK";
    },
    updateQStashBudget: ({ account, params, body }) => {
      const u = this.user(str(params["id"]), account, "change its budget");
      const budget = asObj(body)["budget"] as number;
      if (budget !== 0 && !(budget >= BUDGET.min && budget <= BUDGET.max)) {
        throw new HttpError(
          400,
          `budget: must be 0 (no cap) or from ${BUDGET.min} to ${BUDGET.max} US dollars, not ${budget}`,
        );
      }
      u.budget = budget;
      return "OK";
    },
    enableQStashProdPack: ({ account, params }) => {
      this.user(str(params["id"]), account, "enable its production pack").prod_pack_enabled = true;
      return "OK";
    },
    disableQStashProdPack: ({ account, params }) => {
      this.user(str(params["id"]), account, "disable its production pack").prod_pack_enabled =
        false;
      return "OK";
    },
  };
}
