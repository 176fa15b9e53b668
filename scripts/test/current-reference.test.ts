// The services' current published reference (../shared/reference/service-facts.md, last section) is
// in the specs, field by field, and its request forms are accepted by the emulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../packages/emulator/src/index.js";
import { deref, load, type Operation, type Schema, type Spec } from "./support/spec.js";

const logs = load("logs");
const management = load("management");

const op = (spec: Spec, key: string): Operation => {
  const [method, path] = key.split(" ") as [string, string];
  return spec.paths[path]![method.toLowerCase()]!;
};
const body = (key: string): Schema => {
  const rb = deref(management, op(management, key).requestBody!) as {
    content: Record<string, { schema: Schema }>;
  };
  return deref(management, rb.content["application/json"]!.schema);
};
const prop = (spec: Spec, schema: Schema, name: string): Schema =>
  deref(spec, schema.properties?.[name] ?? {});
/** Values a string schema lists, open (`x-extensible-enum`) or closed (`enum`). */
const values = (spec: Spec, schema: Schema): unknown[] => {
  const s = deref(spec, schema);
  return s.enum ?? s["x-extensible-enum"] ?? [];
};

// --- the facts, as data ----------------------------------------------------------------------------

const PRIMARY_REGIONS = [
  "us-east-1",
  "us-east-2",
  "us-west-1",
  "us-west-2",
  "ca-central-1",
  "eu-central-1",
  "eu-west-1",
  "eu-west-2",
  "sa-east-1",
  "ap-south-1",
  "ap-northeast-1",
  "ap-southeast-1",
  "ap-southeast-2",
  "af-south-1",
  "us-central1",
  "us-east4",
  "europe-west1",
  "asia-northeast1",
];
/** The first 13 primary regions: no af-south-1, no GCP. */
const READ_REGIONS = PRIMARY_REGIONS.slice(0, 13);
const PLANS = [
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
const CREATE_DB = "POST /v2/redis/database";
const CREATE_INDEX = "POST /v2/vector/index";

/** Request body fields: [operation, field, JSON type, values (open or closed) it must list]. */
const BODY_FIELDS: [string, string, string, unknown[]?][] = [
  [CREATE_DB, "database_name", "string"],
  [CREATE_DB, "platform", "string", ["aws", "gcp"]],
  [CREATE_DB, "primary_region", "string", PRIMARY_REGIONS],
  [CREATE_DB, "read_regions", "array", READ_REGIONS],
  [CREATE_DB, "plan", "string", PLANS],
  [CREATE_DB, "budget", "integer"],
  [CREATE_DB, "eviction", "boolean"],
  [CREATE_DB, "tls", "boolean"],
  ["POST /v2/redis/update-regions/{id}", "read_regions", "array", READ_REGIONS],
  [CREATE_INDEX, "region", "string", ["us-central1", "eu-west-1", "us-east-1"]],
  [CREATE_INDEX, "type", "string", ["payg", "fixed", "paid"]],
  [CREATE_INDEX, "similarity_function", "string", ["EUCLIDEAN", "EUCLIDIAN"]],
  [
    CREATE_INDEX,
    "embedding_model",
    "string",
    ["BGE_SMALL_EN_V1_5", "BGE_BASE_EN_V1_5", "BGE_LARGE_EN_V1_5", "BGE_M3"],
  ],
  [CREATE_INDEX, "index_type", "string", ["DENSE", "SPARSE", "HYBRID"]],
  [CREATE_INDEX, "sparse_embedding_model", "string", ["BM25", "BGE_M3"]],
  ["POST /v2/vector/index/{id}/transfer", "target_account", "string"],
];

/** Response record fields: [schema, field, JSON type, closed values it must have]. */
const RECORD_FIELDS: [string, string, string, unknown[]?][] = [
  ["Backup", "daily_backup", "string", ["true", "false"]],
  ["Backup", "hourly_backup", "string", ["true", "false"]],
  ["Backup", "internal_backup_tag", "string"],
  ["Backup", "state", "string"],
  ["Database", "prod_pack_enabled", "boolean"],
  ["Database", "db_eviction", "boolean"],
  ["Database", "replicas", "integer"],
  ["Database", "modifying_state", "string"],
  ["Database", "db_acl_enabled", "string", ["true", "false"]],
  ["VectorIndex", "index_type", "string"],
  ["VectorIndex", "sparse_embedding_model", "string"],
  ["VectorIndex", "reserved_price", "number"],
  ["TeamMember", "copy_cc", "boolean"],
  ["Error", "code", "string"],
  ["Error", "message", "string"],
  ["Error", "error", "string"],
];

/** Logs filters beyond the seed's: [name, repeatable]. */
const LOG_FILTERS: [string, boolean][] = [
  ["label", true],
  ["messageIds", true],
  ["flowControlKey", false],
  ["callerIp", false],
  ["host", false],
  ["path", false],
  ["url", true],
  ["topicName", true],
  ["scheduleId", true],
  ["queueName", true],
];
const LOG_ENTRY_FIELDS: [string, string][] = [
  ["api", "string"],
  ["parallelism", "integer"],
  ["rate", "integer"],
  ["period", "integer"],
];
const STATES = [
  "CREATED",
  "ACTIVE",
  "RETRY",
  "ERROR",
  "IN_PROGRESS",
  "DELIVERED",
  "CANCEL_REQUESTED",
  "CANCELLED",
  "FAILED",
];

// --- the specs hold them -----------------------------------------------------------------------------

describe("the management spec has the current reference", () => {
  it.each(BODY_FIELDS)("%s takes %s (%s)", (key, name, type, known) => {
    const field = prop(management, body(key), name);
    expect(field.type).toBe(type);
    if (known) {
      const listed = values(management, type === "array" ? field.items! : field);
      expect(listed).toEqual(expect.arrayContaining(known));
    }
  });

  it("keeps the seed's spellings, deprecated, and requires one of database_name and name", () => {
    const create = body(CREATE_DB);
    expect(prop(management, create, "name")).toMatchObject({ type: "string", deprecated: true });
    expect(prop(management, create, "region")).toMatchObject({
      deprecated: true,
      default: "global",
    });
    // Each alternative restates its field's type, so the generated type requires one of them.
    expect(create.allOf).toEqual([
      {
        anyOf: [
          {
            type: "object",
            required: ["database_name"],
            properties: { database_name: { type: "string" } },
          },
          { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        ],
      },
    ]);
    expect(create.description).toMatch(/must not contain `primary_region`/);
    expect(body("POST /v2/redis/update-regions/{id}").description).toMatch(
      /must not contain the database's primary region/,
    );
    expect(prop(management, body(CREATE_INDEX), "similarity_function").description).toMatch(
      /`EUCLIDIAN` is deprecated/,
    );
    // The reference bounds neither the budget nor a name's length: the spec states no bound either.
    expect(prop(management, create, "budget")).toEqual({
      type: "integer",
      description: expect.any(String),
    });
    expect(prop(management, create, "database_name").minLength).toBeUndefined();
  });

  it("uses x-extensible-enum (no closed enum) for value sets the service extends", () => {
    for (const [key, name] of [
      [CREATE_DB, "platform"],
      [CREATE_DB, "primary_region"],
      [CREATE_DB, "plan"],
      [CREATE_INDEX, "region"],
      [CREATE_INDEX, "type"],
      [CREATE_INDEX, "embedding_model"],
      [CREATE_INDEX, "index_type"],
      [CREATE_INDEX, "sparse_embedding_model"],
      ["POST /v2/vector/index/{id}/setplan", "target_plan"],
    ] as const) {
      const field = prop(management, body(key), name);
      expect(field["x-extensible-enum"], `${key} ${name}`).toBeInstanceOf(Array);
      expect(field.enum, `${key} ${name}`).toBeUndefined();
    }
  });

  it("lets unknown request fields through on every request body", () => {
    let bodies = 0;
    for (const [path, item] of Object.entries(management.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === "parameters" || !operation.requestBody) continue;
        const key = `${method.toUpperCase()} ${path}`;
        expect(body(key).additionalProperties, key).not.toBe(false);
        bodies++;
      }
    }
    expect(bodies).toBe(21);
  });

  it.each(RECORD_FIELDS)("%s has %s (%s)", (schema, name, type, closed) => {
    const record = management.components.schemas![schema]!;
    expect(record.additionalProperties).toBe(true);
    const field = prop(management, record, name);
    expect(field.type).toBe(type);
    if (closed) expect(field.enum).toEqual(closed);
  });

  it("types every statistics series as nullable", () => {
    const stats = management.components.schemas!.DatabaseStats!;
    for (const name of ["throughput", "latencymean", "keyspace", "dailyrequests", "diskusage"]) {
      expect(prop(management, stats, name)).toMatchObject({ type: "array", nullable: true });
    }
  });

  it("marks the autoupgrade toggles already-applied and says what every repeat does", () => {
    expect(op(management, "POST /v2/redis/enable-autoupgrade/{id}")["x-already-applied"]).toBe(
      "already enabled",
    );
    expect(op(management, "POST /v2/redis/disable-autoupgrade/{id}")["x-already-applied"]).toBe(
      "already disabled",
    );
    for (const key of [
      "POST /v2/redis/enable-eviction/{id}",
      "POST /v2/redis/disable-eviction/{id}",
      "POST /v2/redis/enable-tls/{id}",
      "PATCH /v2/redis/enable-dailybackup/{id}",
      "PATCH /v2/redis/disable-dailybackup/{id}",
    ]) {
      expect(op(management, key).description, key).toMatch(/Repeating it is harmless/);
    }
    for (const [path, item] of Object.entries(management.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === "get" || method === "parameters") continue;
        expect(operation.description, `${method} ${path}`).toMatch(/[Rr]epeat/);
      }
    }
  });
});

describe("the logs spec has the current reference", () => {
  const parameters = Object.fromEntries(
    op(logs, "GET /v2/logs")
      .parameters!.map((p) => deref(logs, p) as Parameter)
      .map((p) => [p.name, p]),
  );

  it.each(LOG_FILTERS)("filters by %s (repeatable: %s)", (name, repeatable) => {
    const p = parameters[name]!;
    expect(p).toMatchObject({ in: "query", required: false });
    if (repeatable) {
      expect(p).toMatchObject({ style: "form", explode: true });
      expect(p.schema).toEqual({
        oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
      });
    } else {
      expect(p.schema).toEqual({ type: "string" });
    }
  });

  it("keeps the seed's count bound and order, deprecated", () => {
    expect(parameters.count!.schema).toMatchObject({ minimum: 1, maximum: 1000 });
    expect(parameters.order).toMatchObject({ deprecated: true });
  });

  it("lists the upper-case states and does not claim case-insensitive matching", () => {
    expect(parameters.state!.schema["x-extensible-enum"]).toEqual(expect.arrayContaining(STATES));
    expect(parameters.state!.description).not.toMatch(/case-insensitive/i);
  });

  it.each(LOG_ENTRY_FIELDS)("log entries carry %s (%s)", (name, type) => {
    expect(prop(logs, logs.components.schemas!.LogEntry!, name).type).toBe(type);
  });
});

// --- the emulator accepts the current forms ---------------------------------------------------------

describe("the emulator accepts the current reference's request forms", () => {
  const account = { email: "ref@example.com", apiKey: "ref-key" };
  const token = "ref-logs-token";
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ logsToken: token, accounts: [account] });
  });
  afterAll(() => emu.close());

  const call = async (method: string, path: string, json?: unknown) => {
    const res = await fetch(`${emu.url}${path}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${account.email}:${account.apiKey}`).toString("base64")}`,
        ...(json === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, text };
  };

  it("creates a database with database_name, platform, primary_region ap-south-1, plan, budget, eviction", async () => {
    const a = await call("POST", "/v2/redis/database", {
      database_name: "current",
      platform: "aws",
      primary_region: "ap-south-1",
      plan: "payg",
      budget: 50,
      eviction: true,
    });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({
      database_name: "current",
      primary_region: "ap-south-1",
      type: "payg",
      budget: 50,
      eviction: true,
    });
    // The record carries only the fields the published documents name: no `platform`.
    expect(a.body).not.toHaveProperty("platform");
  });

  it("creates a database with the seed's name, region global and primary_region", async () => {
    const a = await call("POST", "/v2/redis/database", {
      name: "seed",
      region: "global",
      primary_region: "eu-west-1",
    });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({
      database_name: "seed",
      region: "global",
      primary_region: "eu-west-1",
    });
  });

  it("updates the read regions to ap-northeast-1 and us-east-2", async () => {
    const db = await call("POST", "/v2/redis/database", {
      database_name: "regions",
      primary_region: "ap-south-1",
    });
    const id = String(db.body["database_id"]);
    const a = await call("POST", `/v2/redis/update-regions/${id}`, {
      read_regions: ["ap-northeast-1", "us-east-2"],
    });
    expect(a.status, a.text).toBe(200);
    expect((await call("GET", `/v2/redis/database/${id}`)).body["read_regions"]).toEqual([
      "ap-northeast-1",
      "us-east-2",
    ]);
  });

  it("creates a hybrid vector index in us-central1 on the paid plan", async () => {
    const a = await call("POST", "/v2/vector/index", {
      name: "hybrid",
      region: "us-central1",
      similarity_function: "EUCLIDEAN",
      dimension_count: 384,
      type: "paid",
      index_type: "HYBRID",
      sparse_embedding_model: "BM25",
    });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({
      region: "us-central1",
      type: "paid",
      index_type: "HYBRID",
      sparse_embedding_model: "BM25",
    });
  });

  it("lists logs with repeated label, url and messageIds (ORed) and a flowControlKey (ANDed)", async () => {
    const entries = [
      // Match: every filter holds (label a, url u1, key k, message m1).
      {
        messageId: "m1",
        state: "CREATED",
        url: "https://u1.test/",
        label: "a",
        flowControlKey: "k",
      },
      // Match: label b through `labels`, url u2, message m2.
      {
        messageId: "m2",
        state: "CREATED",
        url: "https://u2.test/",
        labels: ["x", "b"],
        flowControlKey: "k",
      },
      // No: message m3 is not asked for.
      {
        messageId: "m3",
        state: "CREATED",
        url: "https://u1.test/",
        label: "a",
        flowControlKey: "k",
      },
      // No: url u3.
      {
        messageId: "m1",
        state: "ACTIVE",
        url: "https://u3.test/",
        label: "a",
        flowControlKey: "k",
      },
      // No: another flow-control key.
      {
        messageId: "m2",
        state: "ACTIVE",
        url: "https://u2.test/",
        label: "b",
        flowControlKey: "other",
      },
      // No: label c.
      {
        messageId: "m1",
        state: "DELIVERED",
        url: "https://u1.test/",
        label: "c",
        flowControlKey: "k",
      },
    ].map((e, i) => ({ ...e, time: 1_700_000_000_000 + i }));
    emu.logs.append(entries);
    const query =
      "label=a&label=b&url=https%3A%2F%2Fu1.test%2F&url=https%3A%2F%2Fu2.test%2F" +
      "&flowControlKey=k&messageIds=m1&messageIds=m2&order=earliestFirst";
    const res = await fetch(`${emu.url}/v2/logs?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { events: { messageId: string; time: number }[] };
    expect(page.events.map((e) => [e.messageId, e.time])).toEqual([
      ["m1", entries[0]!.time],
      ["m2", entries[1]!.time],
    ]);
  });
});
