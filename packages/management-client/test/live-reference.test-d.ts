// Responses as the service sends them (service-facts.md, "The rest of the live management API"): a record
// carrying every field of the fact sheet is each response type, the 37 fields the seeds lacked declared (not let
// through as unknown fields), and a field the service may omit has to be checked before it is used.
import { describe, expectTypeOf, it } from "vitest";
import type {
  AuditLog,
  Database,
  DatabaseStats,
  GlobalStats,
  QStashStats,
  QStashUser,
  SearchIndex,
  StatsPoint,
  VectorIndex,
  VectorStats,
} from "../src/index.js";
import {
  auditLog,
  fullDatabase,
  fullStats,
  fullVectorIndex,
  globalStats,
  qstashStats,
  qstashUser,
  searchIndex,
  vectorStats,
} from "./support/fixtures.js";

/** The keys a record declares (its index signature for unknown fields left out). */
type Declared<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

describe("a record carrying every field of the fact sheet is the response type", () => {
  it("assigns each fixture, field by field typed", () => {
    expectTypeOf(fullDatabase).toEqualTypeOf<Database>();
    expectTypeOf(fullStats).toEqualTypeOf<DatabaseStats>();
    expectTypeOf(fullVectorIndex).toEqualTypeOf<VectorIndex>();
    expectTypeOf(auditLog).toEqualTypeOf<AuditLog>();
    expectTypeOf(globalStats).toEqualTypeOf<GlobalStats>();
    expectTypeOf(vectorStats).toEqualTypeOf<VectorStats>();
    expectTypeOf(searchIndex).toEqualTypeOf<SearchIndex>();
    expectTypeOf(qstashUser).toEqualTypeOf<QStashUser>();
    expectTypeOf(qstashStats).toEqualTypeOf<QStashStats>();
  });

  it("declares the 37 fields the seeds lacked, with their types", () => {
    const db: Declared<Database>[] = [
      "primary_members",
      "all_members",
      "db_resource_size",
      "db_type",
      "db_conn_idle_timeout",
      "db_lua_timeout",
      "db_store_max_idle",
      "db_lua_credits_per_min",
      "db_max_loads_per_sec",
      "db_acl_default_user_status",
      "prometheus_enabled",
      "last_plan_upgrade_time",
      "customer_id",
      "securityAddons",
    ];
    const st: Declared<DatabaseStats>[] = [
      "monitor_count",
      "daily_net_commands",
      "daily_read_requests",
      "daily_write_requests",
      "dailybandwidth",
      "latency_99",
      "read_latency_mean",
      "read_latency_99",
      "write_latency_mean",
      "write_latency_99",
      "dailybilling",
      "bandwidths",
      "total_monthly_bandwidth",
      "total_monthly_read_requests",
      "total_monthly_write_requests",
      "total_monthly_script_requests",
      "total_monthly_storage",
      "queue_optimized",
      "command_counts",
    ];
    const vi: Declared<VectorIndex>[] = [
      "max_reads_per_request",
      "max_writes_per_request",
      "max_total_metadata_size",
      "throughput_vector",
    ];
    void [db, st, vi];
    // @ts-expect-error: a name the record does not declare is refused, so the lists above prove something
    const misspelt: Declared<Database>[] = ["primary_member"];
    void misspelt;

    expectTypeOf(fullDatabase.db_acl_default_user_status).toEqualTypeOf<
      "true" | "false" | undefined
    >();
    expectTypeOf(fullDatabase.prometheus_enabled).toEqualTypeOf<"true" | "false" | undefined>();
    expectTypeOf(fullDatabase.primary_members).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(fullDatabase.db_store_max_idle).toEqualTypeOf<number | undefined>();
    expectTypeOf(fullStats.monitor_count).toEqualTypeOf<StatsPoint | undefined>();
    expectTypeOf(fullStats.dailybandwidth).toEqualTypeOf<number | undefined>();
    expectTypeOf(fullStats.latency_99).toEqualTypeOf<StatsPoint[] | null | undefined>();
    expectTypeOf(fullVectorIndex.throughput_vector).toEqualTypeOf<
      StatsPoint[] | null | undefined
    >();
  });

  it("types the new records' fields as the fact sheet does", () => {
    expectTypeOf(qstashUser.prometheus_enabled).toEqualTypeOf<"true" | "false" | undefined>();
    expectTypeOf(qstashUser.enterprise).toMatchTypeOf<{ enabled?: boolean } | undefined>();
    expectTypeOf(auditLog.timestamp).toEqualTypeOf<number | undefined>();
    expectTypeOf(vectorStats.query_latency_99).toEqualTypeOf<StatsPoint[] | null | undefined>();
  });
});

describe("a field the service may omit needs a check before use", () => {
  it("refuses unchecked reads of every record's optional fields", () => {
    // @ts-expect-error: the reference does not promise database_name
    fullDatabase.database_name.toUpperCase();
    // @ts-expect-error: nor database_id
    fullDatabase.database_id.length;
    // @ts-expect-error: a series may be absent or null
    fullStats.latency_99.map((p) => p.y);
    // @ts-expect-error: nor a vector index's name
    fullVectorIndex.name.toUpperCase();
    // @ts-expect-error: nor an audit entry's time
    auditLog.timestamp.toFixed();
    // @ts-expect-error: nor the totals
    globalStats.billing.toFixed(2);
    // @ts-expect-error: nor a stats series
    vectorStats.query_latency_99.length;
    // @ts-expect-error: nor a search index's token
    searchIndex.token.length;
    // @ts-expect-error: documented as sometimes missing
    qstashUser.modifying_state.length;
    // @ts-expect-error: enterprise accounts only
    qstashUser.enterprise.enabled;
    // @ts-expect-error: nor the per-day requests
    qstashStats.daily_requests.length;
  });

  it("compiles once checked, and a Point's x and y need no check", () => {
    expectTypeOf(fullDatabase.database_name?.toUpperCase()).toEqualTypeOf<string | undefined>();
    const name = fullDatabase.database_name;
    if (name !== undefined) expectTypeOf(name.toUpperCase()).toEqualTypeOf<string>();
    const point: StatsPoint = { x: "2025-10-01 11:33:05.585757103 +0000 UTC", y: 1 };
    expectTypeOf(point.x.length).toEqualTypeOf<number>();
    expectTypeOf(point.y.toFixed()).toEqualTypeOf<string>();
    // @ts-expect-error: a Point without y is not a Point
    const partial: StatsPoint = { x: "2025-10-01 11:33:05 +0000 UTC" };
    void partial;
  });
});
