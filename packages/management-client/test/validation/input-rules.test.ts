import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManagementClient, ValidationError } from "../../src/index.js";
import type { ManagementClient } from "../../src/index.js";
import { clientFor } from "../support/client.js";
import { API_KEY, EMAIL } from "../support/fixtures.js";
import { startRecordingServer } from "../support/recording-server.js";
import type { RecordingServer } from "../support/recording-server.js";

// Calls go through `any` on purpose: these are the inputs of JavaScript callers who bypass the types.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Untyped = { [Group in keyof ManagementClient]: any };

interface Case {
  call: (m: Untyped) => Promise<unknown>;
  field: string;
  /** Exact rule, or a pattern it must match. */
  rule: string | RegExp;
}

const ONE_OF = /^must be one of /;
const NON_EMPTY = "must be a non-empty string";
const REQUIRED = "is required";

const cases: [string, Case][] = [
  // Ids: empty, missing, or a relative segment.
  ["empty database id", { call: (m) => m.databases.get(""), field: "id", rule: NON_EMPTY }],
  ["missing database id", { call: (m) => m.databases.stats(), field: "id", rule: "is required" }],
  ["non-string id", { call: (m) => m.databases.delete(42), field: "id", rule: "must be a string" }],
  ['".." as an id', { call: (m) => m.databases.delete(".."), field: "id", rule: /"\.\."/ }],
  ['"." as an id', { call: (m) => m.vector.get("."), field: "id", rule: /"\."/ }],
  ["empty backup database id", { call: (m) => m.backups.list(""), field: "id", rule: NON_EMPTY }],
  [
    "empty backup id",
    { call: (m) => m.backups.delete("db", ""), field: "backup_id", rule: NON_EMPTY },
  ],
  ["empty team id", { call: (m) => m.teams.listMembers(""), field: "team_id", rule: NON_EMPTY }],
  ["empty team id on delete", { call: (m) => m.teams.delete(""), field: "id", rule: NON_EMPTY }],
  ["empty index id", { call: (m) => m.vector.resetTokens(""), field: "id", rule: NON_EMPTY }],

  // Bodies that are not objects.
  ["missing body", { call: (m) => m.databases.create(), field: "body", rule: "is required" }],
  ["null body", { call: (m) => m.teams.create(null), field: "body", rule: "must be an object" }],
  ["array body", { call: (m) => m.vector.create([]), field: "body", rule: "must be an object" }],

  // Required fields.
  [
    "database name",
    {
      call: (m) => m.databases.create({}),
      field: "body.database_name",
      rule: 'is required (or "name")',
    },
  ],
  [
    "rename name",
    { call: (m) => m.databases.rename("db", {}), field: "body.name", rule: REQUIRED },
  ],
  [
    "read_regions",
    {
      call: (m) => m.databases.updateRegions("db", {}),
      field: "body.read_regions",
      rule: REQUIRED,
    },
  ],
  [
    "move-to-team database_id",
    {
      call: (m) => m.databases.moveToTeam({ team_id: "t" }),
      field: "body.database_id",
      rule: REQUIRED,
    },
  ],
  [
    "backup_id",
    { call: (m) => m.backups.restore("db", {}), field: "body.backup_id", rule: REQUIRED },
  ],
  [
    "team copy_cc",
    { call: (m) => m.teams.create({ team_name: "x" }), field: "body.copy_cc", rule: REQUIRED },
  ],
  [
    "member_role",
    {
      call: (m) => m.teams.addMember({ team_id: "t", member_email: "a@b.c" }),
      field: "body.member_role",
      rule: REQUIRED,
    },
  ],
  [
    "remove member_email",
    {
      call: (m) => m.teams.removeMember({ team_id: "t" }),
      field: "body.member_email",
      rule: REQUIRED,
    },
  ],
  [
    "dimension_count",
    {
      call: (m) =>
        m.vector.create({ name: "i", region: "us-east-1", similarity_function: "COSINE" }),
      field: "body.dimension_count",
      rule: REQUIRED,
    },
  ],
  [
    "target_plan",
    { call: (m) => m.vector.setPlan("i", {}), field: "body.target_plan", rule: REQUIRED },
  ],

  // Enums.
  [
    "read regions not an array",
    {
      call: (m) => m.databases.create({ name: "n", read_regions: "us-east-1" }),
      field: "body.read_regions",
      rule: /^must be an array/,
    },
  ],
  [
    "member role owner",
    {
      call: (m) => m.teams.addMember({ team_id: "t", member_email: "a@b.c", member_role: "owner" }),
      field: "body.member_role",
      rule: ONE_OF,
    },
  ],
  [
    "similarity function",
    {
      call: (m) =>
        m.vector.create({
          name: "i",
          region: "us-east-1",
          similarity_function: "EUCLID",
          dimension_count: 3,
        }),
      field: "body.similarity_function",
      rule: ONE_OF,
    },
  ],

  // dimension_count must be a number (the reference sets no other bound).
  ...["1536", Number.NaN].map((dimension_count): [string, Case] => [
    `dimension_count ${String(dimension_count)}`,
    {
      call: (m) =>
        m.vector.create({
          name: "i",
          region: "us-east-1",
          similarity_function: "COSINE",
          dimension_count,
        }),
      field: "body.dimension_count",
      rule: /^must be a number/,
    },
  ]),

  // Booleans.
  [
    "tls",
    {
      call: (m) => m.databases.create({ name: "n", tls: "yes" }),
      field: "body.tls",
      rule: "must be a boolean",
    },
  ],
  [
    "copy_cc",
    {
      call: (m) => m.teams.create({ team_name: "x", copy_cc: "true" }),
      field: "body.copy_cc",
      rule: "must be a boolean",
    },
  ],

  // Unknown fields.
  [
    "unknown query key",
    {
      call: (m) => m.databases.get("db", { hide: true }),
      field: "hide",
      rule: /^is not a known parameter/,
    },
  ],

  // A read region never repeats the primary region.
  [
    "primary_region inside read_regions",
    {
      call: (m) =>
        m.databases.create({
          name: "n",
          primary_region: "us-east-1",
          read_regions: ["eu-west-1", "us-east-1"],
        }),
      field: "body.read_regions",
      rule: /primary region "us-east-1"/,
    },
  ],
  // A budget is an integer (the reference sets no bound on it).
  [
    "budget not an integer",
    {
      call: (m) => m.databases.create({ name: "n", budget: 1.5 }),
      field: "body.budget",
      rule: /integer/,
    },
  ],
  [
    "change-plan without plan_name",
    { call: (m) => m.databases.changePlan("db", {}), field: "body.plan_name", rule: REQUIRED },
  ],
  [
    "QStash budget above the reference's bound",
    {
      call: (m) => m.qstash.updateBudget("q", { budget: 10_001 }),
      field: "body.budget",
      rule: /10000/,
    },
  ],
  [
    "CR/LF in a QStash user id",
    { call: (m) => m.qstash.get("q\r\nx"), field: "id", rule: "must not contain a line break" },
  ],
  ['".." as a search index id', { call: (m) => m.search.get(".."), field: "id", rule: /"\.\."/ }],
];

let server: RecordingServer;
let m: Untyped;

beforeAll(async () => {
  server = await startRecordingServer();
  m = clientFor(server);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("bad input is rejected before any request", () => {
  it.each(cases)("%s", async (_name, { call, field, rule }) => {
    const error: unknown = await call(m).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    if (typeof rule === "string") expect((error as ValidationError).rule).toBe(rule);
    else expect((error as ValidationError).rule).toMatch(rule);
    expect(server.requests).toHaveLength(0);
  });
});

describe("valid edge cases are sent", () => {
  const valid: [string, (m: Untyped) => Promise<unknown>][] = [
    [
      "the seed's spelling EUCLIDIAN",
      (m) =>
        m.vector.create({
          name: "i",
          region: "eu-west-1",
          similarity_function: "EUCLIDIAN",
          dimension_count: 1,
        }),
    ],
    [
      "a regional database without global settings",
      (m) => m.databases.create({ name: "n", region: "us-east-1" }),
    ],
    [
      "a global database named explicitly",
      (m) =>
        m.databases.create({
          name: "n",
          region: "global",
          primary_region: "us-east-1",
          read_regions: [],
        }),
    ],
    ["optional fields left undefined", (m) => m.databases.create({ name: "n", tls: undefined })],
    [
      "primary region (open or unknown values are the service's to judge)",
      (m) => m.databases.create({ name: "n", primary_region: "us-east-2" }),
    ],
    [
      "read region (open or unknown values are the service's to judge)",
      (m) => m.databases.create({ name: "n", read_regions: ["us-east-1", "mars-1"] }),
    ],
    [
      "ap-northeast-1 in update-regions (open or unknown values are the service's to judge)",
      (m) => m.databases.updateRegions("db", { read_regions: ["ap-northeast-1"] }),
    ],
    [
      "vector region (open or unknown values are the service's to judge)",
      (m) =>
        m.vector.create({
          name: "i",
          region: "ap-south-1",
          similarity_function: "COSINE",
          dimension_count: 3,
        }),
    ],
    [
      "embedding model (open or unknown values are the service's to judge)",
      (m) =>
        m.vector.create({
          name: "i",
          region: "us-east-1",
          similarity_function: "COSINE",
          dimension_count: 3,
          embedding_model: "OPENAI_ADA",
        }),
    ],
    [
      "vector plan (open or unknown values are the service's to judge)",
      (m) =>
        m.vector.create({
          name: "i",
          region: "us-east-1",
          similarity_function: "COSINE",
          dimension_count: 3,
          type: "pro",
        }),
    ],
    [
      "target plan (open or unknown values are the service's to judge)",
      (m) => m.vector.setPlan("i", { target_plan: "paid" }),
    ],
    [
      "typo in create (open or unknown values are the service's to judge)",
      (m) => m.databases.create({ name: "n", tsl: true }),
    ],
    // Constraints the reference does not state are the service's to judge.
    ["an empty database name", (m) => m.databases.create({ name: "" })],
    ["an empty backup name", (m) => m.backups.create("db", { name: "" })],
    ["an empty target_account", (m) => m.vector.transfer("i", { target_account: "" })],
    ["credentials other than hide", (m) => m.databases.get("db", { credentials: "show" })],
    ["an empty region", (m) => m.databases.create({ name: "n", region: "" })],
    ["a negative budget", (m) => m.databases.create({ name: "n", budget: -1 })],
    ...[0, -3, 1.5].map((dimension_count): [string, (m: Untyped) => Promise<unknown>] => [
      `dimension_count ${dimension_count}`,
      (m) =>
        m.vector.create({
          name: "i",
          region: "us-east-1",
          similarity_function: "COSINE",
          dimension_count,
        }),
    ]),
    [
      "extra field on remove member (open or unknown values are the service's to judge)",
      (m) => m.teams.removeMember({ team_id: "t", member_email: "a@b.c", member_role: "dev" }),
    ],
  ];

  const acknowledged = /update-regions|target plan|remove member|backup name|target_account/;
  it.each(valid)("%s", async (name, call) => {
    server.reply({
      body: acknowledged.test(name)
        ? "OK"
        : { database_id: "d", database_name: "n", id: "i", name: "i" },
    });
    await call(m);
    expect(server.requests).toHaveLength(1);
  });

  it("an unknown body field is sent as given and reported as a warning event", async () => {
    const events: unknown[] = [];
    const logged = createManagementClient({
      email: EMAIL,
      apiKey: API_KEY,
      baseUrl: server.url,
      logger: (event) => events.push(event),
    });
    server.reply({ body: { database_id: "d", database_name: "n" } });
    await logged.databases.create({
      database_name: "n",
      primary_region: "mars-1",
      tsl: true,
    } as never);
    expect(JSON.parse(server.requests[0]?.body ?? "{}")).toEqual({
      database_name: "n",
      primary_region: "mars-1",
      tsl: true,
    });
    expect(events).toContainEqual({
      type: "warning",
      api: "management",
      callId: expect.any(String) as unknown,
      operationId: "createDatabase",
      path: "/v2/redis/database",
      method: "POST",
      url: `${server.url}/v2/redis/database`,
      message: "body.tsl is not in the spec; sent as given",
    });
  });
});

describe("credentials are checked at construction", () => {
  const construction: [string, unknown, string, string | RegExp][] = [
    ["no options (and no UPSTASH_EMAIL)", undefined, "email", /UPSTASH_EMAIL/],
    ["missing email", { apiKey: API_KEY }, "email", NON_EMPTY],
    ["empty email", { email: "", apiKey: API_KEY }, "email", NON_EMPTY],
    ["email with a colon", { email: "a:b@example.com", apiKey: API_KEY }, "email", /":"/],
    ["missing apiKey", { email: EMAIL }, "apiKey", NON_EMPTY],
    ["empty apiKey", { email: EMAIL, apiKey: "" }, "apiKey", NON_EMPTY],
  ];

  it.each(construction)("%s", (_name, options, field, rule) => {
    let error: unknown;
    try {
      createManagementClient(options as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect((error as ValidationError).rule).toMatch(rule);
  });
});
