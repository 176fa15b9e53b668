// Issue #19: the same schema-edge input, sent through the ergonomic method, `request()` and `raw`, is
// refused the same way (error class, field, rule; nothing sent) or sent the same way (the same bytes
// on the wire: request line, headers, body), with the same warnings. One rule check serves all three.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createManagementClient,
  operationTable,
  type LogEvent,
  type ManagementClient,
  type OperationId,
} from "../../src/index.js";
import { API_KEY, EMAIL, startTestServer, type TestServer } from "../support/both-clients.js";

// JavaScript callers bypass the types: the inputs go through `any` on purpose.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Untyped = { [Group in keyof ManagementClient]: any };

interface Input {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

type Expected =
  { refused: { field: string; rule: string | RegExp } } | { sent: true; warnings?: string[] };

interface Edge {
  op: OperationId;
  /** The input as `request()` and `raw` take it (`body` absent: no body given). */
  input: Input;
  /** The same call through the ergonomic method. */
  method: (m: Untyped) => Promise<unknown>;
  expected: Expected;
}

const refused = (field: string, rule: string | RegExp): Expected => ({ refused: { field, rule } });
const SENT: Expected = { sent: true };

const EDGES: [string, Edge][] = [
  [
    "wrong JSON type (a number for a string)",
    {
      op: "createDatabase",
      input: { body: { database_name: 42, primary_region: "us-east-1" } },
      method: (m) => m.databases.create({ database_name: 42, primary_region: "us-east-1" }),
      expected: refused("body.database_name", "must be a string"),
    },
  ],
  [
    "wrong JSON type (a string for a boolean)",
    {
      op: "createDatabase",
      input: { body: { database_name: "n", tls: "yes" } },
      method: (m) => m.databases.create({ database_name: "n", tls: "yes" }),
      expected: refused("body.tls", "must be a boolean"),
    },
  ],
  [
    "missing required field",
    {
      op: "renameDatabase",
      input: { path: { id: "db" }, body: {} },
      method: (m) => m.databases.rename("db", {}),
      expected: refused("body.name", "is required"),
    },
  ],
  [
    "missing one of two required spellings",
    {
      op: "createDatabase",
      input: { body: { primary_region: "us-east-1" } },
      method: (m) => m.databases.create({ primary_region: "us-east-1" }),
      expected: refused("body.database_name", 'is required (or "name")'),
    },
  ],
  [
    "missing body",
    {
      op: "createDatabase",
      input: {},
      method: (m) => m.databases.create(),
      expected: refused("body", "is required"),
    },
  ],
  [
    "body that is not an object (null)",
    {
      op: "createTeam",
      input: { body: null },
      method: (m) => m.teams.create(null),
      expected: refused("body", "must be an object"),
    },
  ],
  [
    "number above the spec's bound",
    {
      op: "updateQStashBudget",
      input: { path: { id: "q" }, body: { budget: 10_001 } },
      method: (m) => m.qstash.updateBudget("q", { budget: 10_001 }),
      expected: refused("body.budget", /10000/),
    },
  ],
  [
    "number that is not an integer",
    {
      op: "updateBudget",
      input: { path: { id: "db" }, body: { budget: 1.5 } },
      method: (m) => m.databases.updateBudget("db", { budget: 1.5 }),
      expected: refused("body.budget", /integer/),
    },
  ],
  [
    "NaN for a number",
    {
      op: "createVectorIndex",
      input: {
        body: {
          name: "i",
          region: "us-east-1",
          similarity_function: "COSINE",
          dimension_count: Number.NaN,
        },
      },
      method: (m) =>
        m.vector.create({
          name: "i",
          region: "us-east-1",
          similarity_function: "COSINE",
          dimension_count: Number.NaN,
        }),
      expected: refused("body.dimension_count", /^must be a number/),
    },
  ],
  [
    "negative budget (the reference sets no bound: sent)",
    {
      op: "updateBudget",
      input: { path: { id: "db" }, body: { budget: -1 } },
      method: (m) => m.databases.updateBudget("db", { budget: -1 }),
      expected: SENT,
    },
  ],
  [
    "unknown body field (sent as given, with a warning)",
    {
      op: "createDatabase",
      input: { body: { database_name: "n", primary_region: "us-east-1", tsl: true } },
      method: (m) =>
        m.databases.create({ database_name: "n", primary_region: "us-east-1", tsl: true }),
      expected: { sent: true, warnings: ["body.tsl is not in the spec; sent as given"] },
    },
  ],
  [
    "unknown query parameter",
    {
      op: "getDatabase",
      input: { path: { id: "db" }, query: { hide: true } },
      method: (m) => m.databases.get("db", { hide: true }),
      expected: refused("hide", /^is not a known parameter/),
    },
  ],
  [
    'path segment ".."',
    {
      op: "deleteDatabase",
      input: { path: { id: ".." } },
      method: (m) => m.databases.delete(".."),
      expected: refused("id", 'must not be "." or ".."'),
    },
  ],
  [
    'path segment "."',
    {
      op: "getVectorIndex",
      input: { path: { id: "." } },
      method: (m) => m.vector.get("."),
      expected: refused("id", 'must not be "." or ".."'),
    },
  ],
  [
    "empty path parameter",
    {
      op: "listBackups",
      input: { path: { id: "" } },
      method: (m) => m.backups.list(""),
      expected: refused("id", "must be a non-empty string"),
    },
  ],
  [
    "CR/LF in a path parameter",
    {
      op: "getQStashUser",
      input: { path: { id: "q\r\nx" } },
      method: (m) => m.qstash.get("q\r\nx"),
      expected: refused("id", "must not contain a line break"),
    },
  ],
  [
    "open-set value in the body (accepted)",
    {
      op: "createDatabase",
      input: { body: { database_name: "n", primary_region: "mars-1", read_regions: ["venus-2"] } },
      method: (m) =>
        m.databases.create({
          database_name: "n",
          primary_region: "mars-1",
          read_regions: ["venus-2"],
        }),
      expected: SENT,
    },
  ],
  [
    "open-set value in the query (accepted)",
    {
      op: "getVectorIndexStats",
      input: { path: { id: "i" }, query: { period: "90d" } },
      method: (m) => m.vector.stats("i", { period: "90d" }),
      expected: SENT,
    },
  ],
  [
    "wrong JSON type in the query",
    {
      op: "getVectorIndexStats",
      input: { path: { id: "i" }, query: { period: 5 } },
      method: (m) => m.vector.stats("i", { period: 5 }),
      expected: refused("period", /^must be a string/),
    },
  ],
  [
    "closed-set value outside the set",
    {
      op: "addTeamMember",
      input: { body: { team_id: "t", member_email: "a@b.c", member_role: "owner" } },
      method: (m) =>
        m.teams.addMember({ team_id: "t", member_email: "a@b.c", member_role: "owner" }),
      expected: refused("body.member_role", /^must be one of /),
    },
  ],
  [
    "null for a required field that is not nullable",
    {
      op: "renameDatabase",
      input: { path: { id: "db" }, body: { name: null } },
      method: (m) => m.databases.rename("db", { name: null }),
      expected: refused("body.name", "is required"),
    },
  ],
  [
    "null for an optional field that is not nullable",
    {
      op: "createDatabase",
      input: { body: { database_name: "n", tls: null } },
      method: (m) => m.databases.create({ database_name: "n", tls: null }),
      expected: refused("body.tls", "must be a boolean"),
    },
  ],
  [
    "array of wrong items",
    {
      op: "updateDatabaseRegions",
      input: { path: { id: "db" }, body: { read_regions: ["us-east-1", 7] } },
      method: (m) => m.databases.updateRegions("db", { read_regions: ["us-east-1", 7] }),
      expected: refused("body.read_regions[1]", /^must be a string/),
    },
  ],
  [
    "a string where an array belongs",
    {
      op: "createDatabase",
      input: { body: { database_name: "n", read_regions: "us-east-1" } },
      method: (m) => m.databases.create({ database_name: "n", read_regions: "us-east-1" }),
      expected: refused("body.read_regions", /^must be an array/),
    },
  ],
  [
    "empty strings (the reference states no minLength: sent)",
    {
      op: "renameDatabase",
      input: { path: { id: "db" }, body: { name: "" } },
      method: (m) => m.databases.rename("db", { name: "" }),
      expected: SENT,
    },
  ],
  [
    "CR/LF inside a JSON string (escaped by JSON: sent)",
    {
      op: "createBackup",
      input: { path: { id: "db" }, body: { name: "nightly\r\nbackup" } },
      method: (m) => m.backups.create("db", { name: "nightly\r\nbackup" }),
      expected: SENT,
    },
  ],
  [
    "read_regions holding the primary region (the service refuses it)",
    {
      op: "createDatabase",
      input: {
        body: { database_name: "n", primary_region: "us-east-1", read_regions: ["us-east-1"] },
      },
      method: (m) =>
        m.databases.create({
          database_name: "n",
          primary_region: "us-east-1",
          read_regions: ["us-east-1"],
        }),
      expected: refused("body.read_regions", 'must not contain the primary region "us-east-1"'),
    },
  ],
];

type Way = "method" | "request" | "raw";
const WAYS: Way[] = ["method", "request", "raw"];

let server: TestServer;
let m: ManagementClient;
const events: LogEvent[] = [];

beforeAll(async () => {
  server = await startTestServer();
  m = createManagementClient({
    email: EMAIL,
    apiKey: API_KEY,
    baseUrl: server.url,
    maxRetries: 0,
    logger: (event) => events.push(event),
  });
});
afterAll(() => server.close());

function send(way: Way, edge: Edge): Promise<unknown> {
  if (way === "method") return edge.method(m as Untyped);
  if (way === "request") return (m.request as any)(edge.op, edge.input);
  const { method, path } = operationTable[edge.op];
  const { body, ...params } = edge.input;
  const call = (m.raw as any)[method] as (path: string, init: object) => Promise<unknown>;
  return call(path, { params, ...("body" in edge.input ? { body } : {}) });
}

/** What one way did: the error it threw, the requests the server received, the warnings logged. */
async function outcome(way: Way, edge: Edge) {
  server.reset();
  events.length = 0;
  const success = operationTable[edge.op].success;
  server.setHandler(() => ({
    body: success === "acknowledgement" ? "OK" : success === "array" ? [] : {},
  }));
  const error = await Promise.resolve()
    .then(() => send(way, edge))
    .then(
      () => undefined,
      (reason: unknown) => reason as { field?: string; rule?: string },
    );
  return {
    error:
      error === undefined
        ? undefined
        : { class: error.constructor.name, field: error.field, rule: error.rule },
    wire: server.requests.map((request) => ({
      method: request.method,
      url: request.url,
      headers: request.rawHeaders,
      bytes: Buffer.from(request.bytes).toString("hex"),
    })),
    warnings: events.flatMap((event) => (event.type === "warning" ? [event.message] : [])),
  };
}

describe("one rule check for every entry point", () => {
  it("covers at least 20 schema edges, both refused and sent", () => {
    expect(EDGES.length).toBeGreaterThanOrEqual(20);
    expect(EDGES.filter(([, e]) => "sent" in e.expected).length).toBeGreaterThanOrEqual(5);
  });

  it.each(EDGES)("%s", async (_name, edge) => {
    const [method, request, raw] = [
      await outcome("method", edge),
      await outcome("request", edge),
      await outcome("raw", edge),
    ];
    // The three ways agree, byte for byte.
    expect(request).toEqual(method);
    expect(raw).toEqual(method);
    // And what they agree on is the expected outcome.
    const { expected } = edge;
    if ("refused" in expected) {
      expect(method.error?.class).toBe("ValidationError");
      expect(method.error?.field).toBe(expected.refused.field);
      if (typeof expected.refused.rule === "string") {
        expect(method.error?.rule).toBe(expected.refused.rule);
      } else {
        expect(method.error?.rule).toMatch(expected.refused.rule);
      }
      expect(method.wire).toEqual([]);
    } else {
      expect(method.error).toBeUndefined();
      expect(method.wire).toHaveLength(1);
      expect(method.warnings).toEqual(expected.warnings ?? []);
      const { method: verb, path } = operationTable[edge.op];
      expect(method.wire[0]?.method).toBe(verb);
      expect(method.wire[0]?.url.split("?")[0]).toBe(
        path.replace(/\{(\w+)\}/g, (_, name: string) => String(edge.input.path?.[name])),
      );
      const sentBody = method.wire[0]?.bytes ?? "";
      expect(Buffer.from(sentBody, "hex").toString("utf8")).toBe(
        "body" in edge.input ? JSON.stringify(edge.input.body) : "",
      );
    }
  });
});
