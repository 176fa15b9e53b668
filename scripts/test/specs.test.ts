import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  "x-irreversible"?: boolean;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: unknown;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; $ref?: string };
type Schema = Record<string, unknown> & { $ref?: string; properties?: Record<string, Schema> };
type Spec = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: Record<string, Record<string, unknown>>;
};

const load = (name: string): Spec =>
  parse(readFileSync(new URL(`../../specs/${name}.openapi.yaml`, import.meta.url), "utf8"));
const logs = load("logs");
const management = load("management");
const METHODS = ["get", "put", "post", "delete", "patch"];

function operations(spec: Spec): [string, Operation & { pathParameters: Parameter[] }][] {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map(
      (m): [string, Operation & { pathParameters: Parameter[] }] => [
        `${m.toUpperCase()} ${path}`,
        { ...(item[m] as Operation), pathParameters: (item.parameters as Parameter[]) ?? [] },
      ],
    ),
  );
}

/** Follows one local `$ref` (the specs only use `#/components/...`). */
function deref<T>(spec: Spec, value: T & { $ref?: string }): T {
  if (!value.$ref) return value;
  const [, , section, name] = value.$ref.split("/");
  return deref(spec, spec.components[section!]![name!] as T & { $ref?: string });
}

function bodySchema(spec: Spec, op: Operation): Schema {
  const body = deref(spec, op.requestBody as { content: Record<string, { schema: Schema }> });
  return deref(spec, body.content["application/json"]!.schema);
}

/** The values a string schema lists: a closed `enum` or the known values of an `x-extensible-enum`. */
function allowed(spec: Spec, schema: Schema): unknown[] {
  const s = deref(spec, schema);
  return (s.enum ?? s["x-extensible-enum"] ?? []) as unknown[];
}

const SEED_OPERATIONS = [
  "GET /v2/logs",
  "GET /v2/events",
  "POST /v2/redis/database",
  "GET /v2/redis/database/{id}",
  "DELETE /v2/redis/database/{id}",
  "GET /v2/redis/databases",
  "GET /v2/redis/stats/{id}",
  "POST /v2/redis/rename/{id}",
  "POST /v2/redis/reset-password/{id}",
  "POST /v2/redis/enable-tls/{id}",
  "POST /v2/redis/enable-eviction/{id}",
  "POST /v2/redis/disable-eviction/{id}",
  "POST /v2/redis/enable-autoupgrade/{id}",
  "POST /v2/redis/disable-autoupgrade/{id}",
  "POST /v2/redis/update-regions/{id}",
  "POST /v2/redis/move-to-team",
  "POST /v2/redis/create-backup/{id}",
  "DELETE /v2/redis/delete-backup/{id}/{backup_id}",
  "GET /v2/redis/list-backup/{id}",
  "POST /v2/redis/restore-backup/{id}",
  "PATCH /v2/redis/enable-dailybackup/{id}",
  "PATCH /v2/redis/disable-dailybackup/{id}",
  "POST /v2/team",
  "DELETE /v2/team/{id}",
  "GET /v2/teams",
  "GET /v2/teams/{team_id}",
  "POST /v2/teams/member",
  "DELETE /v2/teams/member",
  "POST /v2/vector/index",
  "GET /v2/vector/index",
  "GET /v2/vector/index/{id}",
  "DELETE /v2/vector/index/{id}",
  "POST /v2/vector/index/{id}/rename",
  "POST /v2/vector/index/{id}/reset-password",
  "POST /v2/vector/index/{id}/setplan",
  "POST /v2/vector/index/{id}/transfer",
];

/** Request body fields each seed operation names. */
const SEED_BODY_FIELDS: Record<string, string[]> = {
  "POST /v2/redis/database": ["name", "region", "primary_region", "read_regions", "tls"],
  "POST /v2/redis/rename/{id}": ["name"],
  "POST /v2/redis/update-regions/{id}": ["read_regions"],
  "POST /v2/redis/move-to-team": ["team_id", "database_id"],
  "POST /v2/redis/create-backup/{id}": ["name"],
  "POST /v2/redis/restore-backup/{id}": ["backup_id"],
  "POST /v2/team": ["team_name", "copy_cc"],
  "POST /v2/teams/member": ["team_id", "member_email", "member_role"],
  "DELETE /v2/teams/member": ["team_id", "member_email"],
  "POST /v2/vector/index": [
    "name",
    "region",
    "similarity_function",
    "dimension_count",
    "type",
    "embedding_model",
  ],
  "POST /v2/vector/index/{id}/rename": ["name"],
  "POST /v2/vector/index/{id}/setplan": ["target_plan"],
  "POST /v2/vector/index/{id}/transfer": ["target_account"],
};

const REGIONS = [
  "us-east-1",
  "us-west-1",
  "us-west-2",
  "eu-west-1",
  "eu-central-1",
  "ap-southeast-1",
  "ap-southeast-2",
  "sa-east-1",
];

describe("the specs cover the seeds", () => {
  const all = [...operations(logs), ...operations(management)];

  it("hold the 36 seed operations (2 logs, 34 management) and the 24 of the live reference", () => {
    expect(all.map(([key]) => key)).toEqual(expect.arrayContaining([...SEED_OPERATIONS]));
    expect(operations(logs)).toHaveLength(2);
    expect(operations(management)).toHaveLength(58);
  });

  it("are OpenAPI 3.0.1 with the real servers", () => {
    expect([logs.openapi, management.openapi]).toEqual(["3.0.1", "3.0.1"]);
    expect(logs.servers[0]!.url).toBe("https://qstash.upstash.io");
    expect(management.servers[0]!.url).toBe("https://api.upstash.com");
  });

  it.each(all)(
    "%s has a unique camelCase operationId, summary, description, tag and security",
    (_, op) => {
      expect(op.operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(all.filter(([, other]) => other.operationId === op.operationId)).toHaveLength(1);
      expect(op.summary).toBeTruthy();
      expect(op.description).toBeTruthy();
      expect(op.tags).toHaveLength(1);
      // The reference attaches no authentication to the QStash IPv4 list.
      expect(op.security).toEqual(
        _ === "GET /v2/qstash/ipv4"
          ? []
          : [{ [logs.paths[_.split(" ")[1]!] ? "bearerAuth" : "basicAuth"]: [] }],
      );
    },
  );

  it("marks only /v2/events deprecated", () => {
    expect(all.filter(([, op]) => op.deprecated).map(([key]) => key)).toEqual(["GET /v2/events"]);
  });

  it("declares path parameters as required strings for every template segment", () => {
    for (const [key, op] of all) {
      const names = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = [...op.pathParameters, ...(op.parameters ?? [])]
        .map((p) => deref(logs.paths[key.split(" ")[1]!] ? logs : management, p))
        .filter((p) => p.in === "path");
      expect(params.map((p) => p.name).sort(), key).toEqual(names.sort());
      for (const p of params) expect([p.required, p.schema?.type], key).toEqual([true, "string"]);
    }
  });

  it.each(Object.entries(SEED_BODY_FIELDS))(
    "%s takes the seed's body fields and passes unknown ones",
    (key, fields) => {
      const [method, path] = key.split(" ") as [string, string];
      const op = management.paths[path]![method.toLowerCase()] as Operation;
      const schema = bodySchema(management, op);
      expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(fields));
      expect(schema.additionalProperties).not.toBe(false);
    },
  );
});

describe("the logs spec follows the seed's parameters", () => {
  const op = logs.paths["/v2/logs"]!.get as Operation;
  const params = Object.fromEntries(
    op.parameters!.map((p) => deref(logs, p)).map((p) => [p.name, p] as const),
  );

  it("takes the seed's eleven optional query parameters", () => {
    expect(Object.keys(params)).toEqual(
      expect.arrayContaining([
        "count",
        "cursor",
        "fromDate",
        "messageId",
        "order",
        "queueName",
        "scheduleId",
        "state",
        "toDate",
        "topicName",
        "url",
      ]),
    );
    for (const p of Object.values(params)) expect([p.in, p.required]).toEqual(["query", false]);
  });

  it("bounds count to 1..1000 with the service's default 100 and orders latestFirst by default", () => {
    expect(params.count!.schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 1000,
      default: 100,
    });
    expect(params.order!.schema).toMatchObject({
      enum: ["earliestFirst", "latestFirst"],
      default: "latestFirst",
    });
    expect(params.fromDate!.schema!.type).toBe("number");
    expect(params.toDate!.schema!.type).toBe("number");
  });

  it("serves /v2/events with the same parameters and responses", () => {
    const events = logs.paths["/v2/events"]!.get as Operation & { responses: unknown };
    expect(events.parameters).toEqual(op.parameters);
    expect(events.responses).toEqual((op as Operation & { responses: unknown }).responses);
  });
});

describe("the management spec follows the seed's enums", () => {
  const schemas = management.components.schemas as Record<string, Schema>;
  const field = (key: string, name: string): Schema => {
    const [method, path] = key.split(" ") as [string, string];
    const body = bodySchema(management, management.paths[path]![method.toLowerCase()] as Operation);
    const prop = body.properties![name]!;
    return (prop.type === "array" ? prop["items"] : prop) as Schema;
  };
  const CREATE_DB = "POST /v2/redis/database";
  const CREATE_INDEX = "POST /v2/vector/index";

  // Every value the seed lists is still allowed (the current reference may add more).
  it.each([
    ["primary_region", field(CREATE_DB, "primary_region"), REGIONS],
    [
      "read_regions",
      field(CREATE_DB, "read_regions"),
      [...REGIONS.slice(0, 7), "ap-northeast-1", "sa-east-1"],
    ],
    [
      "update-regions read_regions",
      field("POST /v2/redis/update-regions/{id}", "read_regions"),
      REGIONS,
    ],
    ["vector region", field(CREATE_INDEX, "region"), ["eu-west-1", "us-east-1"]],
    [
      "similarity_function",
      field(CREATE_INDEX, "similarity_function"),
      ["COSINE", "EUCLIDEAN", "EUCLIDIAN", "DOT_PRODUCT"],
    ],
    ["vector type", field(CREATE_INDEX, "type"), ["payg", "fixed"]],
    [
      "target_plan",
      field("POST /v2/vector/index/{id}/setplan", "target_plan"),
      ["free", "payg", "fixed"],
    ],
    ["member_role", field("POST /v2/teams/member", "member_role"), ["admin", "dev", "finance"]],
    [
      "embedding_model",
      field(CREATE_INDEX, "embedding_model"),
      [
        "BGE_SMALL_EN_V1_5",
        "BGE_BASE_EN_V1_5",
        "BGE_LARGE_EN_V1_5",
        "BGE_M3",
        "BERT_BASE_UNCASED",
        "UAE_Large_V1",
        "ALL_MINILM_L6_V2",
        "MXBAI_EMBED_LARGE_V1",
      ],
    ],
  ])("%s allows every seed value", (_name, schema, values) => {
    expect(allowed(management, schema)).toEqual(expect.arrayContaining(values));
  });

  it("defaults the database region to global and takes credentials=hide (an open set)", () => {
    expect(schemas.CreateDatabaseRequest!.properties!.region).toMatchObject({ default: "global" });
    const get = management.paths["/v2/redis/database/{id}"]!.get as Operation;
    expect(
      get.parameters!.map((p) => [p.name, p.in, p.schema?.enum, p.schema?.["x-extensible-enum"]]),
    ).toEqual([["credentials", "query", undefined, ["hide"]]]);
  });

  it("takes any number as dimension_count (the reference sets no other bound)", () => {
    expect(schemas.CreateVectorIndexRequest!.properties!.dimension_count).toMatchObject({
      type: "number",
    });
    expect(schemas.CreateVectorIndexRequest!.properties!.dimension_count!.minimum).toBeUndefined();
  });
});

describe("x-irreversible: what a caller cannot undo asks a person first (CLI, MCP)", () => {
  const ops = operations(management);
  const UNDOABLE_NEVER = /^(delete|remove|reset|restore|transfer|move|change|set)[A-Z]/;
  it.each(ops)(
    "%s is marked exactly when it deletes, resets, restores, transfers, moves or changes a plan",
    (_where, op) => {
      expect(op["x-irreversible"] === true).toBe(UNDOABLE_NEVER.test(op.operationId));
    },
  );
  it("no read and no logs operation is marked", () => {
    for (const [where, op] of [...ops, ...operations(logs)]) {
      if (where.startsWith("GET ")) expect(op["x-irreversible"], where).toBeUndefined();
    }
  });
});

describe("x-secret: the properties the MCP server masks in every result", () => {
  it("marks exactly the database passwords and REST tokens, and the QStash and index tokens", async () => {
    const { secretProperties } = await import("../lib/openapi.mjs");
    const where = (spec: Spec) =>
      (secretProperties(spec) as { where: string[] }[]).flatMap((p) => p.where).sort();
    expect(where(logs)).toEqual([]);
    expect(where(management)).toEqual([
      "Database.password",
      "Database.read_only_rest_token",
      "Database.rest_token",
      "QStashUser.read_only_token",
      "QStashUser.token",
      "SearchIndex.read_only_token",
      "SearchIndex.token",
      "VectorIndex.read_only_token",
      "VectorIndex.token",
    ]);
  });

  it("reaches the MCP server's generated table, so a new secret field needs no hand edit", async () => {
    const { secretFields } = await import("../../packages/mcp/src/generated/tools.js");
    expect(secretFields).toEqual([
      "password",
      "read_only_rest_token",
      "read_only_token",
      "rest_token",
      "token",
    ]);
  });

  it("is refused on anything but a string property", async () => {
    const { secretProperties } = await import("../lib/openapi.mjs");
    const doc = {
      components: {
        schemas: { Key: { properties: { id: { type: "integer", "x-secret": true } } } },
      },
    };
    expect(() => secretProperties(doc)).toThrow(/Key\.id: x-secret/);
  });
});
