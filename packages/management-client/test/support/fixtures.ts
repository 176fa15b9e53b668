import type {
  Backup,
  Database,
  DatabaseStats,
  Team,
  TeamMember,
  VectorIndex,
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
  database_id: database.database_id,
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
  team_id: team.team_id,
  team_name: team.team_name,
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
