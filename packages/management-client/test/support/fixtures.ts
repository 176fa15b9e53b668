import type {
  AuditLog,
  Backup,
  Database,
  DatabaseStats,
  GlobalStats,
  QStashStats,
  QStashUser,
  SearchIndex,
  Team,
  TeamMember,
  VectorIndex,
  VectorStats,
} from "../../src/index.js";

/** Credentials used by every test client. */
export const EMAIL = "ops@example.com";
export const API_KEY = "mgmt-key-5f2c9a7e-secret";
/** The `Authorization` header the server must see for {@link EMAIL} and {@link API_KEY}. */
export const AUTHORIZATION = `Basic ${Buffer.from(`${EMAIL}:${API_KEY}`, "utf8").toString("base64")}`;

/** A database record shaped like the service's (reference: service-facts.md). */
export const database: Database = {
  database_id: "96ad0856-03b1-4ee7-9666-e81abd0349e1",
  database_name: "cache",
  database_type: "Pay as You Go",
  region: "global",
  port: 6379,
  creation_time: 1_700_000_000,
  state: "active",
  endpoint: "eu1-sharp-cat-12345.upstash.io",
  tls: true,
  password: "AZ3kPassword",
  user_email: EMAIL,
  rest_token: "AZ3kRestToken",
  read_only_rest_token: "AZ3kReadOnly",
  primary_region: "eu-west-1",
  read_regions: ["us-east-1"],
  eviction: false,
  auto_upgrade: false,
  consistent: false,
  type: "payg",
  budget: 360,
  daily_backup_enabled: false,
  db_max_clients: 1000,
  db_max_request_size: 1_048_576,
  db_disk_threshold: 107_374_182_400,
  db_max_entry_size: 104_857_600,
  db_memory_threshold: 3_221_225_472,
  db_max_commands_per_second: 1000,
  db_request_limit: 9_007_199_254_740_991,
  db_acl_enabled: "false",
};

/** Statistics shaped like the service's. */
export const stats: DatabaseStats = {
  throughput: [{ x: "2024-05-01 10:00:00.000 +0000 UTC", y: 12.5 }],
  latencymean: [{ x: "2024-05-01 10:00:00.000 +0000 UTC", y: 0.8 }],
  keyspace: [{ x: "2024-05-01 10:00:00.000 +0000 UTC", y: 42 }],
  dailyrequests: [{ x: "2024-05-01 00:00:00 +0000 UTC", y: 1_024 }],
  total_monthly_requests: 30_000,
  total_monthly_billing: 0.6,
  current_storage: 2_048,
  days: ["Wednesday", "Thursday"],
};

/** A backup record. */
export const backup: Backup = {
  backup_id: "bk-7c1e",
  name: "before-migration",
  database_id: database.database_id!,
  customer_id: EMAIL,
  creation_time: 1_700_000_100,
  state: "completed",
  backup_size: 10_240,
  daily_backup: "false",
};

/** A team record (as created). */
export const team: Team = { team_id: "tm-1f3", team_name: "Platform", copy_cc: true };

/** A team member record. */
export const member: TeamMember = {
  team_id: team.team_id!,
  team_name: team.team_name!,
  member_email: "dev@example.com",
  member_role: "dev",
};

/** A vector index record. */
export const vectorIndex: VectorIndex = {
  id: "0b5b6c8e-3f0a-4c4e-9d5e-2a1f9c1b7e11",
  customer_id: EMAIL,
  name: "docs",
  similarity_function: "COSINE",
  dimension_count: 1536,
  embedding_model: "BGE_M3",
  endpoint: "glad-owl-1234-us1-vector.upstash.io",
  token: "ABUFtoken",
  read_only_token: "ABUFreadonly",
  type: "payg",
  region: "us-east-1",
  creation_time: 1_700_000_200,
  max_vector_count: 2_000_000_000,
  max_daily_updates: -1,
  max_daily_queries: -1,
  max_monthly_bandwidth: -1,
  max_writes_per_second: 1000,
  max_query_per_second: 1000,
  index_type: "DENSE",
};

/** A point of a statistics series, its `x` in the service's Go-style time text. */
const point = (y: number) => ({ x: "2025-10-01 11:33:05.585757103 +0000 UTC", y });

/** An audit log entry carrying every field of the fact sheet. */
export const auditLog: AuditLog = {
  log_id: "al-0001",
  customer_id: EMAIL,
  actor: EMAIL,
  timestamp: 1_700_000_300,
  action: 13,
  action_string: "Delete Team",
  source: "API_KEY - ci",
  entity: "tm-1f3",
  secondary_entity: "NA",
  third_entity: "",
  readable_format: "",
  ip: "203.0.113.7",
  ttl: 1_731_536_300,
  reason: "",
  notes: "",
};

/** Totals over all vector or search indexes, every field of the fact sheet. */
export const globalStats: GlobalStats = {
  record_count: 1_200,
  request: 45_000,
  bandwidth: 1_048_576,
  storage: 2_097_152,
  billing: 1.25,
  rerank_count: 12,
};

/** Statistics of one vector or search index, every field of the fact sheet. */
export const vectorStats: VectorStats = {
  pending_index_count: 0,
  current_vector_count: 1_200,
  daily_query_count: 300,
  daily_update_count: 40,
  daily_rerank_count: 2,
  monthly_query_count: 9_000,
  monthly_update_count: 1_200,
  monthly_rerank_count: 60,
  monthly_bandwidth_usage: 1_048_576,
  storage_usage: 2_097_152,
  monthly_cost: 0.42,
  days: ["Monday", "Tuesday"],
  daily_query_requests: [point(300)],
  daily_update_requests: [point(40)],
  daily_rerank_requests: [point(2)],
  daily_bandwidths: [point(4_096)],
  query_throughput: [point(5)],
  update_throughput: [point(1)],
  query_latency_mean: [point(3.5)],
  query_latency_99: [point(12)],
  update_latency_mean: [point(4)],
  update_latency_99: [point(15)],
  embeds_latency_mean: [point(20)],
  embeds_latency_99: [point(40)],
  rerank_latency_mean: [point(30)],
  rerank_latency_99: [point(60)],
  vector_count: [point(1_200)],
  data_size: null,
};

/** A search index, every field of the fact sheet. */
export const searchIndex: SearchIndex = {
  id: "5d0f2a8e-7c1b-4e2a-9b1e-3c4d5e6f7a8b",
  customer_id: EMAIL,
  name: "docs-search",
  endpoint: "glowing-baboon-15797-us1",
  type: "payg",
  region: "us-central1",
  vercel_email: "",
  token: "ASearchToken",
  read_only_token: "ASearchReadOnly",
  max_vector_count: 1_000_000,
  max_monthly_reranks: -1,
  max_daily_updates: -1,
  max_daily_queries: -1,
  max_monthly_bandwidth: -1,
  max_writes_per_second: 1000,
  max_query_per_second: 1000,
  max_reads_per_request: 1000,
  max_writes_per_request: 1000,
  creation_time: 1_700_000_400,
  input_enrichment_enabled: true,
  throughput_vector: [point(3)],
};

/** A QStash user, every field of the fact sheet. */
export const qstashUser: QStashUser = {
  id: "8e1d4c2b-0a9f-4b3e-8c7d-6e5f4a3b2c1d",
  customer_id: EMAIL,
  token: "eyJVc2VySUQiOiJxc3Rhc2gifQ==",
  read_only_token: "eyJSZWFkT25seSI6dHJ1ZX0=",
  active: true,
  state: "active",
  modifying_state: "suspended",
  type: "paid",
  region: "eu-central-1",
  reserved_type: "qstash_fixed_1m",
  reserved_price: 0,
  budget: 0,
  prod_pack_enabled: false,
  prometheus_enabled: "false",
  enterprise: { enabled: false },
  created_by: EMAIL,
  creation_time: 1_700_000_500,
  deletion_time: 0,
  last_plan_upgrade_time: 1_700_000_600,
  timeout: 7_200,
  max_message_size: 1_048_576,
  max_requests_per_day: 500,
  max_requests_per_day_hard: 1_000,
  max_requests_per_second: 100,
  max_endpoints_per_topic: 100,
  max_topics: 10,
  max_schedules: 10,
  max_queues: 10,
  max_dlq_size: 1_000,
  max_retries: 3,
  max_events_size: 10_000,
  max_dlq_retention_time_milis: 604_800_000,
  max_delay: 604_800,
  max_parallelism: 10,
  max_global_parallelism: 100,
  max_bandwidth_per_second: 10_485_760,
};

/** Statistics of a QStash user, every field of the fact sheet. */
export const qstashStats: QStashStats = {
  days: ["Monday", "Tuesday"],
  daily_requests: [{ ...point(20), workflow_message: 3, workflow_run: 1 }],
  daily_billings: [point(0.01)],
  daily_bandwidths: [point(2_048)],
  daily_used: [point(20)],
  daily_used_workflow: [point(4)],
  daily_bandwidth_used: [point(2_048)],
  daily_qstash_messages: [{ id: "delivered", data_points: [point(18)] }],
  daily_workflow_messages: [{ id: "canceled", data_points: [point(1)] }],
  dlq_message_count: 2,
  total_monthly_billing: 0.31,
};

/** {@link database} with the 14 fields the seeds lacked (fact sheet: "Fields of existing records"). */
export const fullDatabase: Database = {
  ...database,
  primary_members: ["eu-west-1"],
  all_members: ["eu-west-1", "us-east-1"],
  db_resource_size: "S",
  db_type: "pebble",
  db_conn_idle_timeout: 21_600_000_000_000,
  db_lua_timeout: 250_000_000,
  db_store_max_idle: 900_000_000_000,
  db_lua_credits_per_min: 10_000_000_000,
  db_max_loads_per_sec: 1_000_000,
  db_acl_default_user_status: "true",
  prometheus_enabled: "false",
  last_plan_upgrade_time: 1_700_000_700,
  customer_id: EMAIL,
  securityAddons: {
    ipWhitelisting: false,
    vpcPeering: false,
    privateLink: false,
    tlsMutualAuth: false,
    encryptionAtRest: true,
  },
};

/** {@link stats} with the 19 fields the seeds lacked. */
export const fullStats: DatabaseStats = {
  ...stats,
  monitor_count: point(1),
  daily_net_commands: 1_024,
  daily_read_requests: 800,
  daily_write_requests: 224,
  dailybandwidth: 65_536,
  latency_99: [point(2.5)],
  read_latency_mean: [point(0.7)],
  read_latency_99: [point(2)],
  write_latency_mean: [point(0.9)],
  write_latency_99: null,
  dailybilling: [point(0.02)],
  bandwidths: [point(4_096)],
  total_monthly_bandwidth: 1_048_576,
  total_monthly_read_requests: 24_000,
  total_monthly_write_requests: 6_000,
  total_monthly_script_requests: 12,
  total_monthly_storage: 2_048,
  queue_optimized: false,
  command_counts: [{ metric_identifier: "EXISTS", data_points: [point(4)] }],
};

/** {@link vectorIndex} with the 4 fields the seeds lacked. */
export const fullVectorIndex: VectorIndex = {
  ...vectorIndex,
  max_reads_per_request: 1_000,
  max_writes_per_request: 1_000,
  max_total_metadata_size: 52_428_800,
  throughput_vector: [point(3)],
};
