// The rest of the live management API (../shared/reference/service-facts.md, section "The rest of the
// live management API" and its subsections) is in the management spec, fact by fact: the 24 operations,
// the 37 record fields the seeds lacked, what the reference guarantees about presence, and the 58
// official operationIds. Each table below is a transcription of the fact sheet, not of the spec.
import { describe, expect, it } from "vitest";
import { deref, load, type Operation, type Parameter, type Schema } from "./support/spec.js";

const logs = load("logs");
const management = load("management");
const schemas = management.components.schemas!;

const op = (key: string): Operation => {
  const [method, path] = key.split(" ") as [string, string];
  const operation = management.paths[path]?.[method.toLowerCase()];
  expect(operation, `${key} is in the spec`).toBeDefined();
  return operation!;
};
const body = (key: string): Schema => {
  const rb = deref(management, op(key).requestBody!) as {
    content: Record<string, { schema: Schema }>;
  };
  return deref(management, rb.content["application/json"]!.schema);
};
const prop = (schema: Schema, name: string): Schema =>
  deref(management, schema.properties?.[name] ?? {});
/** The schema of an operation's `200` answer. */
const answer = (key: string): Schema => {
  const res = deref(management, op(key).responses["200"]!) as {
    content: Record<string, { schema: Schema }>;
  };
  return deref(management, res.content["application/json"]!.schema);
};
/** All parameters of an operation, the path item's included. */
const parameters = (key: string): Parameter[] => {
  const [, path] = key.split(" ") as [string, string];
  return [...(management.paths[path]!.parameters ?? []), ...(op(key).parameters ?? [])].map(
    (p) => deref(management, p) as Parameter,
  );
};
const isPoint = (s: Schema): boolean =>
  s.type === "object" &&
  [...(s.required ?? [])].sort().join() === "x,y" &&
  prop(s, "x").type === "string" &&
  prop(s, "y").type === "number";
/** A field's shape in the fact sheet's words: string, integer, number, boolean, object, Point, T[]. */
function kind(schema: Schema): string {
  const s = deref(management, schema);
  if (s.type === "array") return `${kind(s.items ?? {})}[]`;
  if (isPoint(s)) return "Point";
  return String(s.type);
}

// --- the facts, as data ----------------------------------------------------------------------------

const DB_PLANS = [
  "free",
  "payg",
  "fixed_250mb",
  "fixed_1gb",
  "fixed_5gb",
  "fixed_10gb",
  "fixed_50gb",
  "fixed_100gb",
  "fixed_500gb",
];
const QSTASH_PLANS = ["paid", "qstash_fixed_1m", "qstash_fixed_10m", "qstash_fixed_100m"];
const PERIODS = ["1h", "3h", "12h", "1d", "3d", "7d", "30d"];
const ACK = "ack";

/**
 * The 24 operations: [method and path, operationId, what `200` carries (ack, a schema, `X[]`),
 * whether a source says a repeat answers like the first call (x-idempotent), takes `period`].
 */
const OPERATIONS: [string, string, string, boolean, boolean][] = [
  ["POST /v2/redis/{id}/change-plan", "changePlan", ACK, false, false],
  ["PATCH /v2/redis/update-budget/{id}", "updateBudget", ACK, true, false],
  ["GET /auditlogs", "listAuditLogs", "AuditLog[]", false, false],
  ["GET /v2/vector/index/stats", "getGlobalVectorStats", "GlobalStats", false, false],
  ["GET /v2/vector/index/{id}/stats", "getVectorIndexStats", "VectorStats", false, true],
  ["GET /v2/search", "listSearchIndexes", "SearchIndex[]", false, false],
  ["POST /v2/search", "createSearchIndex", "SearchIndex", false, false],
  ["GET /v2/search/{id}", "getSearchIndex", "SearchIndex", false, false],
  ["DELETE /v2/search/{id}", "deleteSearchIndex", ACK, false, false],
  ["GET /v2/search/stats", "getGlobalSearchStats", "GlobalStats", false, false],
  ["GET /v2/search/{id}/stats", "getSearchIndexStats", "VectorStats", false, true],
  ["POST /v2/search/{id}/reset-password", "resetSearchPassword", ACK, false, false],
  ["POST /v2/search/{id}/transfer", "transferSearchIndex", ACK, false, false],
  ["POST /v2/search/{id}/rename", "renameSearchIndex", ACK, false, false],
  ["GET /v2/qstash/users", "listQStashUsers", "QStashUser[]", false, false],
  ["GET /v2/qstash/user/{id}", "getQStashUser", "QStashUser", false, false],
  ["POST /v2/qstash/rotate-token/{id}", "resetQStashToken", "QStashUser", false, false],
  ["POST /v2/qstash/set-plan/{id}", "setQStashPlan", ACK, false, false],
  ["GET /v2/qstash/stats/{id}", "getQStashStats", "QStashStats", false, true],
  ["GET /v2/qstash/ipv4", "getQStashIPv4", "string[]", false, false],
  ["POST /v2/qstash/move-to-team", "moveQStashToTeam", ACK, false, false],
  ["PATCH /v2/qstash/update-budget/{id}", "updateQStashBudget", ACK, false, false],
  ["POST /v2/qstash/enable-prodpack/{id}", "enableQStashProdPack", ACK, false, false],
  ["POST /v2/qstash/disable-prodpack/{id}", "disableQStashProdPack", ACK, false, false],
];

/** Request body fields: [operation, field, type, required, known values of an open set]. */
const BODY_FIELDS: [string, string, string, boolean, string[]?][] = [
  ["POST /v2/redis/{id}/change-plan", "plan_name", "string", true, DB_PLANS],
  ["POST /v2/redis/{id}/change-plan", "database_id", "string", false],
  ["POST /v2/redis/{id}/change-plan", "auto_upgrade", "boolean", false],
  ["POST /v2/redis/{id}/change-plan", "prod_pack_enabled", "boolean", false],
  ["PATCH /v2/redis/update-budget/{id}", "budget", "integer", true],
  ["POST /v2/search", "name", "string", true],
  ["POST /v2/search", "region", "string", true, ["eu-west-1", "us-central1"]],
  ["POST /v2/search", "type", "string", true, ["free", "payg", "fixed"]],
  ["POST /v2/search/{id}/transfer", "target_account", "string", true],
  ["POST /v2/search/{id}/rename", "name", "string", true],
  ["POST /v2/qstash/set-plan/{id}", "plan_name", "string", true, QSTASH_PLANS],
  ["POST /v2/qstash/move-to-team", "qstash_id", "string", true],
  ["POST /v2/qstash/move-to-team", "target_team_id", "string", true],
  ["PATCH /v2/qstash/update-budget/{id}", "budget", "integer", true],
];
const WITH_BODY = new Set(BODY_FIELDS.map(([key]) => key));

const VECTOR_STATS_INTEGERS = [
  "pending_index_count",
  "current_vector_count",
  "daily_query_count",
  "daily_update_count",
  "daily_rerank_count",
  "monthly_query_count",
  "monthly_update_count",
  "monthly_rerank_count",
  "monthly_bandwidth_usage",
  "storage_usage",
];
const VECTOR_STATS_SERIES = [
  "daily_query_requests",
  "daily_update_requests",
  "daily_rerank_requests",
  "daily_bandwidths",
  "query_throughput",
  "update_throughput",
  "query_latency_mean",
  "query_latency_99",
  "update_latency_mean",
  "update_latency_99",
  "embeds_latency_mean",
  "embeds_latency_99",
  "rerank_latency_mean",
  "rerank_latency_99",
  "vector_count",
  "data_size",
];
const QSTASH_USER_INTEGERS = [
  "reserved_price",
  "budget",
  "creation_time",
  "deletion_time",
  "last_plan_upgrade_time",
  "timeout",
  "max_message_size",
  "max_requests_per_day",
  "max_requests_per_day_hard",
  "max_requests_per_second",
  "max_endpoints_per_topic",
  "max_topics",
  "max_schedules",
  "max_queues",
  "max_dlq_size",
  "max_retries",
  "max_events_size",
  "max_dlq_retention_time_milis",
  "max_delay",
  "max_parallelism",
  "max_global_parallelism",
  "max_bandwidth_per_second",
];
const SEARCH_INDEX_INTEGERS = [
  "max_vector_count",
  "max_monthly_reranks",
  "max_daily_updates",
  "max_daily_queries",
  "max_monthly_bandwidth",
  "max_writes_per_second",
  "max_query_per_second",
  "max_reads_per_request",
  "max_writes_per_request",
  "creation_time",
];

type Field = [string, string, string, string[]?];
const fields = (record: string, type: string, names: string[]): Field[] =>
  names.map((name) => [record, name, type]);

/** Fields of the records the 24 operations return: [record, field, kind, known values (open)]. */
const NEW_RECORD_FIELDS: Field[] = [
  ...fields("AuditLog", "string", [
    "log_id",
    "customer_id",
    "actor",
    "action_string",
    "source",
    "entity",
    "secondary_entity",
    "third_entity",
    "readable_format",
    "ip",
    "reason",
    "notes",
  ]),
  ...fields("AuditLog", "integer", ["timestamp", "action", "ttl"]),
  ...fields("GlobalStats", "integer", [
    "record_count",
    "request",
    "bandwidth",
    "storage",
    "rerank_count",
  ]),
  ["GlobalStats", "billing", "number"],
  ...fields("VectorStats", "integer", VECTOR_STATS_INTEGERS),
  ["VectorStats", "monthly_cost", "number"],
  ["VectorStats", "days", "string[]"],
  ...fields("VectorStats", "Point[]", VECTOR_STATS_SERIES),
  ...fields("SearchIndex", "string", [
    "id",
    "customer_id",
    "name",
    "endpoint",
    "vercel_email",
    "token",
    "read_only_token",
  ]),
  ["SearchIndex", "type", "string", ["free", "payg", "fixed"]],
  ["SearchIndex", "region", "string", ["eu-west-1", "us-central1"]],
  ...fields("SearchIndex", "integer", SEARCH_INDEX_INTEGERS),
  ["SearchIndex", "input_enrichment_enabled", "boolean"],
  ["SearchIndex", "throughput_vector", "Point[]"],
  ...fields("QStashUser", "string", [
    "id",
    "customer_id",
    "token",
    "read_only_token",
    "modifying_state",
    "created_by",
  ]),
  ["QStashUser", "active", "boolean"],
  ["QStashUser", "state", "string", ["active", "passive"]],
  ["QStashUser", "type", "string", ["free", "paid"]],
  ["QStashUser", "region", "string", ["eu-central-1", "us-east-1"]],
  [
    "QStashUser",
    "reserved_type",
    "string",
    ["qstash_fixed_1m", "qstash_fixed_10m", "qstash_fixed_100m", "qstash_fixed"],
  ],
  ...fields("QStashUser", "integer", QSTASH_USER_INTEGERS),
  ["QStashUser", "prod_pack_enabled", "boolean"],
  ["QStashUser", "prometheus_enabled", "string"],
  ["QStashUser", "enterprise", "object"],
  ["QStashStats", "days", "string[]"],
  ["QStashStats", "daily_requests", "object[]"],
  ...fields("QStashStats", "Point[]", [
    "daily_billings",
    "daily_bandwidths",
    "daily_used",
    "daily_used_workflow",
    "daily_bandwidth_used",
  ]),
  ...fields("QStashStats", "object[]", ["daily_qstash_messages", "daily_workflow_messages"]),
  ["QStashStats", "dlq_message_count", "integer"],
  ["QStashStats", "total_monthly_billing", "number"],
];

/** "Fields of existing records that the specs lack": 14 + 19 + 4 = 37. */
const LACKING_FIELDS: Field[] = [
  ...fields("Database", "string[]", ["primary_members", "all_members"]),
  ["Database", "db_resource_size", "string", ["S", "M", "L", "XL", "XXL", "3XL"]],
  ["Database", "db_type", "string", ["bolt", "badger", "pebble"]],
  ...fields("Database", "integer", [
    "db_conn_idle_timeout",
    "db_lua_timeout",
    "db_store_max_idle",
    "db_lua_credits_per_min",
    "db_max_loads_per_sec",
    "last_plan_upgrade_time",
  ]),
  ...fields("Database", "string", [
    "db_acl_default_user_status",
    "prometheus_enabled",
    "customer_id",
  ]),
  ["Database", "securityAddons", "object"],
  ["DatabaseStats", "monitor_count", "Point"],
  ...fields("DatabaseStats", "integer", [
    "daily_net_commands",
    "daily_read_requests",
    "daily_write_requests",
    "dailybandwidth",
    "total_monthly_bandwidth",
    "total_monthly_read_requests",
    "total_monthly_write_requests",
    "total_monthly_script_requests",
    "total_monthly_storage",
  ]),
  ...fields("DatabaseStats", "Point[]", [
    "latency_99",
    "read_latency_mean",
    "read_latency_99",
    "write_latency_mean",
    "write_latency_99",
    "dailybilling",
    "bandwidths",
  ]),
  ["DatabaseStats", "queue_optimized", "boolean"],
  ["DatabaseStats", "command_counts", "object[]"],
  ...fields("VectorIndex", "number", [
    "max_reads_per_request",
    "max_writes_per_request",
    "max_total_metadata_size",
  ]),
  ["VectorIndex", "throughput_vector", "Point[]"],
];

/** Keyed series and other nested objects: [record, field, item's fields and kinds]. */
const NESTED: [string, string, Record<string, string>][] = [
  ["DatabaseStats", "command_counts", { metric_identifier: "string", data_points: "Point[]" }],
  ["QStashStats", "daily_qstash_messages", { id: "string", data_points: "Point[]" }],
  ["QStashStats", "daily_workflow_messages", { id: "string", data_points: "Point[]" }],
  [
    "QStashStats",
    "daily_requests",
    { x: "string", y: "number", workflow_message: "integer", workflow_run: "integer" },
  ],
];

/** Every record a management response carries: none has a required property (the reference marks none). */
const RECORDS = [
  "Database",
  "DatabaseStats",
  "Backup",
  "Team",
  "TeamMember",
  "VectorIndex",
  "AuditLog",
  "GlobalStats",
  "VectorStats",
  "SearchIndex",
  "QStashUser",
  "QStashStats",
];

/** Official operationIds (58): [method and path, official id, the specs' own id where it differs]. */
const OFFICIAL: [string, string, string?][] = [
  ["GET /v2/redis/databases", "listDatabases"],
  ["GET /v2/redis/database/{id}", "getDatabase"],
  ["DELETE /v2/redis/database/{id}", "deleteDatabase"],
  ["POST /v2/redis/database", "createDatabase"],
  ["POST /v2/redis/rename/{id}", "renameDatabase"],
  ["POST /v2/redis/reset-password/{id}", "resetPassword", "resetDatabasePassword"],
  ["POST /v2/redis/enable-tls/{id}", "enableTls", "enableDatabaseTls"],
  ["POST /v2/redis/enable-eviction/{id}", "enableEviction", "enableDatabaseEviction"],
  ["POST /v2/redis/disable-eviction/{id}", "disableEviction", "disableDatabaseEviction"],
  ["POST /v2/redis/enable-autoupgrade/{id}", "enableAutoUpgrade", "enableDatabaseAutoUpgrade"],
  ["POST /v2/redis/disable-autoupgrade/{id}", "disableAutoUpgrade", "disableDatabaseAutoUpgrade"],
  ["POST /v2/redis/{id}/change-plan", "changePlan"],
  ["PATCH /v2/redis/update-budget/{id}", "updateBudget"],
  ["POST /v2/redis/update-regions/{id}", "updateRegions", "updateDatabaseRegions"],
  ["POST /v2/redis/move-to-team", "moveToTeam", "moveDatabaseToTeam"],
  ["GET /v2/redis/stats/{id}", "getDatabaseStats"],
  ["GET /v2/redis/list-backup/{id}", "listBackup", "listBackups"],
  ["POST /v2/redis/create-backup/{id}", "createBackup"],
  ["DELETE /v2/redis/delete-backup/{id}/{backup_id}", "deleteBackup"],
  ["POST /v2/redis/restore-backup/{id}", "restoreBackup"],
  ["PATCH /v2/redis/enable-dailybackup/{id}", "enableDailyBackup"],
  ["PATCH /v2/redis/disable-dailybackup/{id}", "disableDailyBackup"],
  ["GET /v2/teams", "listTeams"],
  ["GET /auditlogs", "listAuditLogs"],
  ["POST /v2/team", "createTeam"],
  ["DELETE /v2/team/{id}", "deleteTeam"],
  ["GET /v2/teams/{team_id}", "getTeamMembers", "listTeamMembers"],
  ["POST /v2/teams/member", "addTeamMember"],
  ["DELETE /v2/teams/member", "deleteTeamMember", "removeTeamMember"],
  ["GET /v2/vector/index", "listIndices", "listVectorIndexes"],
  ["POST /v2/vector/index", "createIndex", "createVectorIndex"],
  ["GET /v2/vector/index/{id}", "getIndex", "getVectorIndex"],
  ["DELETE /v2/vector/index/{id}", "deleteIndex", "deleteVectorIndex"],
  ["POST /v2/vector/index/{id}/rename", "renameIndex", "renameVectorIndex"],
  ["POST /v2/vector/index/{id}/reset-password", "resetIndexPasswords", "resetVectorIndexTokens"],
  ["POST /v2/vector/index/{id}/setplan", "setIndexPlan", "setVectorIndexPlan"],
  ["POST /v2/vector/index/{id}/transfer", "transferIndex", "transferVectorIndex"],
  ["GET /v2/vector/index/stats", "getGlobalVectorStats"],
  ["GET /v2/vector/index/{id}/stats", "getVectorIndexStats"],
  ["GET /v2/search", "listSearchIndexes"],
  ["POST /v2/search", "createSearchIndex"],
  ["GET /v2/search/{id}", "getSearchIndex"],
  ["DELETE /v2/search/{id}", "deleteSearchIndex"],
  ["GET /v2/search/stats", "getGlobalSearchStats"],
  ["GET /v2/search/{id}/stats", "getSearchIndexStats"],
  ["POST /v2/search/{id}/reset-password", "resetSearchPassword"],
  ["POST /v2/search/{id}/transfer", "transferSearchIndex"],
  ["POST /v2/search/{id}/rename", "renameSearchIndex"],
  ["GET /v2/qstash/users", "listQStashUsers"],
  ["GET /v2/qstash/user/{id}", "getQStashUser"],
  ["POST /v2/qstash/rotate-token/{id}", "resetQStashToken"],
  ["POST /v2/qstash/set-plan/{id}", "setQStashPlan"],
  ["GET /v2/qstash/stats/{id}", "getQStashStats"],
  ["GET /v2/qstash/ipv4", "getQStashIPv4"],
  ["POST /v2/qstash/move-to-team", "moveQStashToTeam"],
  ["PATCH /v2/qstash/update-budget/{id}", "updateQStashBudget"],
  ["POST /v2/qstash/enable-prodpack/{id}", "enableQStashProdPack"],
  ["POST /v2/qstash/disable-prodpack/{id}", "disableQStashProdPack"],
];

// --- the spec holds them -----------------------------------------------------------------------------

describe("the 24 live operations are in the management spec", () => {
  it("lists 24 operations, the 11 acknowledgements among them", () => {
    expect(new Set(OPERATIONS.map(([key]) => key)).size).toBe(24);
    expect(OPERATIONS.filter(([, , res]) => res === ACK)).toHaveLength(11);
  });

  it.each(OPERATIONS)("%s is %s", (key, id, res, idempotent, period) => {
    const operation = op(key);
    expect(operation.operationId).toBe(id);

    // What `200` carries.
    const schema = answer(key);
    if (res === ACK) {
      expect(schema).toBe(schemas.Acknowledgement);
      expect(schema).toMatchObject({ type: "string" });
      expect(schema.enum).toBeUndefined();
    } else if (res === "string[]") {
      expect(schema).toMatchObject({ type: "array", items: { type: "string" } });
    } else if (res.endsWith("[]")) {
      expect(schema.type).toBe("array");
      expect(deref(management, schema.items!)).toBe(schemas[res.slice(0, -2)]);
    } else {
      expect(schema).toBe(schemas[res]);
    }

    // Retry safety: x-idempotent only where a repeat answers like the first call.
    if (idempotent) expect(operation["x-idempotent"]).toBe(true);
    else expect(operation["x-idempotent"]).toBeUndefined();

    // Every `{id}` is a required string path parameter; `period` is an optional, open query.
    const params = parameters(key);
    if (key.includes("{id}")) {
      expect(params.find((p) => p.in === "path" && p.name === "id")).toMatchObject({
        required: true,
        schema: { type: "string" },
      });
    }
    const p = params.find((q) => q.name === "period");
    if (period) {
      expect(p).toMatchObject({ in: "query", required: false });
      const s = deref(management, p!.schema);
      expect(s).toMatchObject({ type: "string", default: "1h" });
      expect(s["x-extensible-enum"]).toEqual(PERIODS);
      expect(s.enum).toBeUndefined();
    } else {
      expect(p).toBeUndefined();
    }

    // A body where the fact sheet lists one, and only there.
    if (WITH_BODY.has(key)) expect(deref(management, operation.requestBody!).required).toBe(true);
    else expect(operation.requestBody).toBeUndefined();
  });

  it.each(BODY_FIELDS)("%s takes %s (%s, required: %s)", (key, name, type, required, known) => {
    const request = body(key);
    const field = prop(request, name);
    expect(field.type).toBe(type);
    expect((request.required ?? []).includes(name)).toBe(required);
    expect(request.additionalProperties).not.toBe(false);
    if (known) {
      expect(field["x-extensible-enum"]).toEqual(expect.arrayContaining(known));
      expect(field.enum).toBeUndefined();
    }
  });

  it("states no request bounds the reference lacks, and the QStash budget's 0–10000", () => {
    const budget = prop(body("PATCH /v2/redis/update-budget/{id}"), "budget");
    expect(budget.minimum).toBeUndefined();
    expect(budget.maximum).toBeUndefined();
    expect(prop(body("PATCH /v2/qstash/update-budget/{id}"), "budget")).toMatchObject({
      minimum: 0,
      maximum: 10000,
    });
    expect(
      prop(body("POST /v2/qstash/set-plan/{id}"), "plan_name")["x-extensible-enum"],
    ).not.toContain("free");
    for (const [key, name] of BODY_FIELDS.filter(([, , type]) => type === "string")) {
      expect(prop(body(key), name).minLength, `${key} ${name}`).toBeUndefined();
    }
  });

  it("keeps the moves' field names apart (no shared type)", () => {
    expect(body("POST /v2/qstash/move-to-team")).not.toBe(body("POST /v2/redis/move-to-team"));
    expect(body("POST /v2/redis/move-to-team").properties).not.toHaveProperty("qstash_id");
  });

  it("puts listAuditLogs at /auditlogs, the one path without /v2, naming /v2/auditlogs as the alternative", () => {
    expect(management.paths["/v2/auditlogs"]).toBeUndefined();
    expect(Object.keys(management.paths).filter((p) => !p.startsWith("/v2/"))).toEqual([
      "/auditlogs",
    ]);
    expect(op("GET /auditlogs").description).toMatch(/`\/v2\/auditlogs`/);
  });

  it("does not mark transferIndex idempotent: a repeat answers 404", () => {
    const transfer = op("POST /v2/vector/index/{id}/transfer");
    expect(transfer["x-idempotent"]).toBeUndefined();
    expect(transfer.description).toMatch(/404/);
  });

  it("matches the literal stats segments before the templated ones (both paths exist)", () => {
    for (const path of [
      "/v2/vector/index/stats",
      "/v2/vector/index/{id}",
      "/v2/search/stats",
      "/v2/search/{id}",
    ]) {
      expect(management.paths[path], path).toBeDefined();
    }
  });
});

describe("the records carry every field of the fact sheet", () => {
  it("counts 37 fields the specs lacked", () => {
    expect(LACKING_FIELDS).toHaveLength(37);
  });

  it.each([...NEW_RECORD_FIELDS, ...LACKING_FIELDS])(
    "%s has %s (%s)",
    (record, name, type, known) => {
      const schema = schemas[record]!;
      expect(schema.additionalProperties).toBe(true);
      const field = prop(schema, name);
      expect(kind(field)).toBe(type);
      if (known) {
        expect(field["x-extensible-enum"]).toEqual(expect.arrayContaining(known));
        expect(field.enum).toBeUndefined();
      }
    },
  );

  it.each(NESTED)("%s.%s items have their fields", (record, name, itemFields) => {
    const items = deref(management, prop(schemas[record]!, name).items!);
    for (const [field, type] of Object.entries(itemFields)) {
      expect(kind(prop(items, field)), field).toBe(type);
    }
  });

  it("types the three string flags of Database and QStash's prometheus_enabled as strings", () => {
    for (const [record, name] of [
      ["Database", "db_acl_enabled"],
      ["Database", "db_acl_default_user_status"],
      ["Database", "prometheus_enabled"],
      ["QStashUser", "prometheus_enabled"],
    ] as const) {
      const field = prop(schemas[record]!, name);
      expect(field.type, `${record}.${name}`).toBe("string");
      if (field.enum) expect(field.enum).toEqual(expect.arrayContaining(["true", "false"]));
    }
  });

  it("gives the security add-ons and the enterprise flag their booleans", () => {
    const addons = prop(schemas.Database!, "securityAddons");
    for (const name of [
      "ipWhitelisting",
      "vpcPeering",
      "privateLink",
      "tlsMutualAuth",
      "encryptionAtRest",
    ]) {
      expect(prop(addons, name).type, name).toBe("boolean");
    }
    expect(prop(prop(schemas.QStashUser!, "enterprise"), "enabled").type).toBe("boolean");
  });

  it("keeps the fields older examples show, optional", () => {
    for (const name of [
      "password",
      "rest_token",
      "read_only_rest_token",
      "user_email",
      "database_type",
      "reserved_per_region_price",
      "next_daily_backup_time",
    ]) {
      expect(schemas.Database!.properties, name).toHaveProperty(name);
    }
  });

  it("lets every statistics series be null", () => {
    for (const [record, name, type] of [...NEW_RECORD_FIELDS, ...LACKING_FIELDS]) {
      if (!record.endsWith("Stats") || !type.endsWith("[]") || name === "days") continue;
      expect(
        deref(management, schemas[record]!.properties![name]!).nullable,
        `${record}.${name}`,
      ).toBe(true);
    }
  });

  it("types every numeric field of VectorIndex as number", () => {
    for (const [name, field] of Object.entries(schemas.VectorIndex!.properties!)) {
      expect(deref(management, field).type, name).not.toBe("integer");
    }
  });
});

describe("presence: only what the fact sheet guarantees is required", () => {
  /** A record and every object nested in it (fields, array items), a Point excepted. */
  const shapes = (schema: Schema, seen = new Set<Schema>()): Schema[] => {
    const s = deref(management, schema);
    if (seen.has(s) || isPoint(s)) return [];
    seen.add(s);
    const inner = [...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : [])];
    return [s, ...inner.flatMap((field) => shapes(field, seen))];
  };

  it.each(RECORDS)("%s requires no property, nor does any object inside it", (record) => {
    for (const shape of shapes(schemas[record]!)) {
      expect(shape.required ?? [], String(shape.description)).toEqual([]);
    }
  });

  it("requires a Point's x and y", () => {
    expect(isPoint(schemas.StatsPoint!)).toBe(true);
    expect(schemas.StatsPoint!.required).toEqual(["x", "y"]);
  });

  it("guarantees only time, messageId and state of a log entry", () => {
    expect([...(logs.components.schemas!.LogEntry!.required ?? [])].sort()).toEqual([
      "messageId",
      "state",
      "time",
    ]);
  });
});

describe("the 58 official operationIds", () => {
  it("lists 58 operations, 24 of them new", () => {
    expect(OFFICIAL).toHaveLength(58);
    const news = new Set(OPERATIONS.map(([key]) => key));
    expect(OFFICIAL.filter(([key]) => news.has(key))).toHaveLength(24);
  });

  it.each(OFFICIAL)("%s is %s", (key, official, specs) => {
    expect(op(key).operationId).toBe(specs ?? official);
  });

  it("has no operation beyond the 58", () => {
    const inSpec = Object.entries(management.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => m !== "parameters")
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(inSpec.sort()).toEqual(OFFICIAL.map(([key]) => key).sort());
  });
});
