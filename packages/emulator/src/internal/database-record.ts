// A database's record: built from a `createDatabase` body by the service's rules (global or the older
// regional creation, platform and region, plan), and the fields that follow its plan.
import { seconds, token, uuid, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import { checkKnown, hostName, known, type Account } from "./resource.js";

/** A database as stored and answered. */
export interface DatabaseRecord extends Record<string, unknown> {
  database_id: string;
  database_name: string;
  region: string;
  primary_region: string;
  read_regions: string[];
  tls: boolean;
  password: string;
  rest_token: string;
  read_only_rest_token: string;
  eviction: boolean;
  auto_upgrade: boolean;
  daily_backup_enabled: boolean;
  user_email: string;
}

/** Primary regions on the `gcp` platform; every other known region is on `aws`. */
const GCP_REGIONS = new Set(["us-central1", "us-east4", "europe-west1", "asia-northeast1"]);

/** Disk size of each fixed plan, bytes. */
const FIXED_SIZES: Record<string, [bytes: number, size: string]> = {
  fixed_250mb: [262_144_000, "S"],
  fixed_1gb: [1_073_741_824, "S"],
  fixed_5gb: [5_368_709_120, "M"],
  fixed_10gb: [10_737_418_240, "L"],
  fixed_50gb: [53_687_091_200, "XL"],
  fixed_100gb: [107_374_182_400, "XXL"],
  fixed_500gb: [536_870_912_000, "3XL"],
};

/** The fields of a database that follow its plan (on create and on changePlan). */
export function planFields(plan: string): Record<string, unknown> {
  const fixed = FIXED_SIZES[plan];
  return {
    // The record's `type` is the plan family: fixed plans show as `paid`.
    type: plan === "free" || plan === "payg" ? plan : "paid",
    database_type: plan === "free" ? "Free" : plan === "payg" ? "Pay as You Go" : "Fixed",
    db_resource_size: fixed?.[1] ?? "S",
    db_disk_threshold: fixed?.[0] ?? (plan === "free" ? 268_435_456 : 107_374_182_400),
    db_memory_threshold: fixed?.[0] ?? (plan === "free" ? 268_435_456 : 3_221_225_472),
  };
}

/** The database with its credentials masked (`?credentials=hide`). */
export function hide(db: DatabaseRecord): DatabaseRecord {
  return { ...db, password: "***", rest_token: "***", read_only_rest_token: "***" };
}

/**
 * A new database's record from a `createDatabase` body (400 on what the service refuses); `primary_region`
 * and `read_regions` are checked against the regions the spec lists.
 */
export function newDatabase(
  entropy: Entropy,
  account: Account,
  b: Record<string, unknown>,
): DatabaseRecord {
  // `database_name` is the current spelling, `name` the older one; either names the database.
  const name = typeof b["database_name"] === "string" ? b["database_name"] : (b["name"] as unknown);
  if (typeof name !== "string") {
    throw new HttpError(400, "database_name: is required (or the older spelling name)");
  }
  const region = typeof b["region"] === "string" ? b["region"] : "global";
  const primary = b["primary_region"];
  const reads = Array.isArray(b["read_regions"]) ? [...new Set(b["read_regions"] as string[])] : [];
  const platform = typeof b["platform"] === "string" ? b["platform"] : undefined;
  if (platform !== undefined) checkKnown("platform", platform, "Platform");
  if (region === "global") {
    if (typeof primary !== "string") {
      throw new HttpError(400, "primary_region: is required for a global database");
    }
    checkKnown("primary_region", primary, "PrimaryRegion");
    const onGcp = GCP_REGIONS.has(primary);
    if (platform !== undefined && (platform === "gcp") !== onGcp) {
      throw new HttpError(
        400,
        `platform: ${primary} is a ${onGcp ? "gcp" : "aws"} region, not a ${platform} one`,
      );
    }
    for (const r of reads) checkKnown("read_regions", r, "ReadRegion");
    if (reads.includes(primary)) {
      throw new HttpError(400, `read_regions: must not include the primary region ${primary}`);
    }
  } else {
    // The older regional creation (deprecated): the region is one of the aws primary regions.
    const regional = known("PrimaryRegion").filter((r) => !GCP_REGIONS.has(r));
    if (!regional.includes(region)) {
      throw new HttpError(
        400,
        `region: unknown region ${region}; use global or one of ${regional.join(", ")}`,
      );
    }
    if (primary !== undefined)
      throw new HttpError(400, "primary_region: only a global database has a primary region");
    if (b["read_regions"] !== undefined) {
      throw new HttpError(400, "read_regions: only a global database has read regions");
    }
  }
  const plan = typeof b["plan"] === "string" ? b["plan"] : "payg";
  checkKnown("plan", plan, "DatabasePlan");
  const host = hostName(entropy);
  const record: DatabaseRecord = {
    database_id: uuid(entropy),
    database_name: name,
    region,
    port: 6379,
    creation_time: seconds(entropy),
    state: "active",
    endpoint: `${host}.upstash.io`,
    tls: b["tls"] === true,
    password: token(entropy, 16),
    user_email: account.email,
    rest_token: token(entropy, 36),
    read_only_rest_token: token(entropy, 36),
    primary_region: region === "global" ? String(primary) : region,
    read_regions: region === "global" ? reads : [],
    eviction: b["eviction"] === true,
    db_eviction: b["eviction"] === true,
    replicas: region === "global" ? 1 + reads.length : 1,
    auto_upgrade: false,
    consistent: false,
    budget: typeof b["budget"] === "number" ? b["budget"] : 360,
    daily_backup_enabled: false,
    prod_pack_enabled: false,
    db_acl_enabled: "false",
    db_max_clients: 1000,
    db_max_request_size: 10_485_760,
    db_max_entry_size: 104_857_600,
    db_max_commands_per_second: 1000,
    db_request_limit: 100_000_000_000,
    primary_members: [region === "global" ? String(primary) : region],
    all_members: region === "global" ? [String(primary), ...reads] : [region],
    db_type: "pebble",
    // Nanoseconds, as the service sends them.
    db_conn_idle_timeout: 21_600_000_000_000,
    db_lua_timeout: 250_000_000,
    db_store_max_idle: 900_000_000_000,
    db_lua_credits_per_min: 10_000_000_000,
    db_max_loads_per_sec: 1_000_000,
    // Strings holding "true"/"false", unlike the other flags.
    db_acl_default_user_status: "true",
    prometheus_enabled: "false",
    customer_id: account.email,
    securityAddons: {
      ipWhitelisting: false,
      vpcPeering: false,
      privateLink: false,
      tlsMutualAuth: false,
      encryptionAtRest: false,
    },
    ...planFields(plan),
    last_plan_upgrade_time: seconds(entropy),
  };
  return record;
}
