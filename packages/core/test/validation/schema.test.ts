// The compiled-schema checker shared by the clients (typed values) and the emulator (wire strings).
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/index.js";
import {
  checkParams,
  checkValue,
  parsePathParam,
  parseQuery,
  type ParameterRule,
  type Schema,
} from "../../src/internal.js";

function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  return "(no error)";
}

const region: Schema = { type: "string", enum: ["eu-west-1", "us-east-1"] };
const body: Schema = {
  type: "object",
  required: ["name"],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1 },
    read_regions: { type: "array", items: { type: "string" }, maxItems: 2 },
    region,
    dims: { type: "integer", minimum: 1 },
    note: { type: "string", nullable: true },
    code: { type: "string", pattern: "^[a-z]{2}$" },
  },
};
const open: Schema = {
  type: "object",
  properties: { a: { type: "object", properties: { b: { type: "boolean" } } } },
};
const idOrList: Schema = {
  oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
};

describe("checkValue", () => {
  it.each<[string, { schema: Schema; value: unknown; field?: string; want: string }]>([
    [
      "wrong item type",
      {
        schema: body,
        value: { name: "x", read_regions: [1] },
        want: "body.read_regions[0]: must be a string",
      },
    ],
    ["missing required", { schema: body, value: {}, want: "body.name: is required" }],
    [
      "null for a required field",
      { schema: body, value: { name: null }, want: "body.name: is required" },
    ],
    [
      "empty string",
      { schema: body, value: { name: "" }, want: "body.name: must be a non-empty string" },
    ],
    [
      "closed enum",
      {
        schema: body,
        value: { name: "x", region: "mars" },
        want: 'body.region: must be one of "eu-west-1", "us-east-1"',
      },
    ],
    [
      "bound",
      { schema: body, value: { name: "x", dims: 0 }, want: "body.dims: must be an integer >= 1" },
    ],
    [
      "not an integer",
      { schema: body, value: { name: "x", dims: 1.5 }, want: "body.dims: must be an integer >= 1" },
    ],
    [
      "too many items",
      {
        schema: body,
        value: { name: "x", read_regions: ["a", "b", "c"] },
        want: "body.read_regions: must have <= 2 items",
      },
    ],
    [
      "pattern",
      {
        schema: body,
        value: { name: "x", code: "abc" },
        want: "body.code: must match the pattern ^[a-z]{2}$",
      },
    ],
    [
      "null where not nullable",
      {
        schema: body,
        value: { name: "x", region: null },
        want: 'body.region: must be one of "eu-west-1", "us-east-1"',
      },
    ],
    [
      "unknown field, closed object",
      {
        schema: body,
        value: { name: "x", colour: 1 },
        want: 'body.colour: is not a known field (expected one of "name", "read_regions", "region", "dims", "note", "code")',
      },
    ],
    ["not an object", { schema: body, value: [], want: "body: must be an object" }],
    [
      "class instance is not a plain object",
      { schema: body, value: new Date(0), want: "body: must be an object" },
    ],
    [
      "nested object",
      { schema: open, value: { a: { b: "yes" } }, want: "body.a.b: must be a boolean" },
    ],
    [
      "integer range",
      {
        schema: { type: "integer", minimum: 1, maximum: 1000 },
        value: 1001,
        field: "count",
        want: "count: must be an integer from 1 to 1000",
      },
    ],
    [
      "NaN is not a number",
      {
        schema: { type: "number" },
        value: NaN,
        field: "fromDate",
        want: "fromDate: must be a number",
      },
    ],
    [
      "oneOf: no variant of that type",
      {
        schema: idOrList,
        value: 3,
        field: "q",
        want: "q: must be a string or an array of strings",
      },
    ],
    [
      "oneOf: the variant of that type explains",
      { schema: idOrList, value: ["a", 2], field: "q", want: "q[1]: must be a string" },
    ],
    [
      "length in code points",
      {
        schema: { type: "string", maxLength: 2 },
        value: "abc",
        field: "s",
        want: "s: must be a string of at most 2 characters",
      },
    ],
  ])("%s", (_name, { schema, value, field = "body", want }) => {
    expect(thrown(() => checkValue(schema, value, field))).toBe(want);
  });

  it.each<[string, Schema, unknown]>([
    [
      "a valid body",
      body,
      { name: "x", read_regions: ["eu-west-1"], region: "us-east-1", dims: 3, code: "ab" },
    ],
    ["null where nullable", body, { name: "x", note: null }],
    ["undefined fields are absent", body, { name: "x", region: undefined }],
    ["an open set (no enum) takes any string", { type: "string", known: ["a"] }, "z"],
    ["oneOf: string", idOrList, "a"],
    ["oneOf: array", idOrList, ["a", "b"]],
    ["an emoji is one character", { type: "string", maxLength: 1 }, "😀"],
    ["no type takes anything", {}, { any: [1] }],
  ])("accepts %s", (_name, schema, value) => {
    expect(() => checkValue(schema, value, "body")).not.toThrow();
  });

  it("collects undeclared fields of open objects instead of refusing them", () => {
    const unknown: string[] = [];
    checkValue(open, { a: { b: true, c: 1 }, d: 2 }, "body", unknown);
    expect(unknown).toEqual(["body.a.c", "body.d"]);
  });
});

const query: ParameterRule[] = [
  {
    name: "count",
    in: "query",
    required: false,
    schema: { type: "integer", minimum: 1, maximum: 1000, default: 1000 },
  },
  {
    name: "order",
    in: "query",
    required: false,
    schema: { type: "string", enum: ["earliestFirst", "latestFirst"] },
  },
  { name: "fromDate", in: "query", required: false, schema: { type: "number" } },
  { name: "flag", in: "query", required: false, schema: { type: "boolean" } },
  { name: "topic", in: "query", required: false, schema: idOrList },
  { name: "team", in: "query", required: true, schema: { type: "string" } },
];
const path: ParameterRule[] = [
  { name: "id", in: "path", required: true, schema: { type: "string" } },
];

describe("checkParams", () => {
  it.each<
    [
      string,
      {
        rules: ParameterRule[];
        at: "path" | "query";
        values: Record<string, unknown> | undefined;
        want: string;
      },
    ]
  >([
    [
      "unknown query name",
      {
        rules: query,
        at: "query",
        values: { team: "t", cont: 1 },
        want: 'query.cont: is not a known parameter (expected one of "count", "order", "fromDate", "flag", "topic", "team")',
      },
    ],
    [
      "missing required",
      { rules: query, at: "query", values: {}, want: "query.team: is required" },
    ],
    [
      "no values, one required",
      { rules: query, at: "query", values: undefined, want: "query.team: is required" },
    ],
    [
      "out of range",
      {
        rules: query,
        at: "query",
        values: { team: "t", count: 0 },
        want: "query.count: must be an integer from 1 to 1000",
      },
    ],
    [
      "lone surrogate",
      {
        rules: query,
        at: "query",
        values: { team: "a\uD800" },
        want: "query.team: must be well-formed Unicode (it holds a lone surrogate)",
      },
    ],
    [
      "lone surrogate in a list",
      {
        rules: query,
        at: "query",
        values: { team: "t", topic: ["ok", "\uDC00"] },
        want: "query.topic: must be well-formed Unicode (it holds a lone surrogate)",
      },
    ],
    [
      "empty path segment",
      { rules: path, at: "path", values: { id: "" }, want: "path.id: must be a non-empty string" },
    ],
    [
      "dot-dot segment",
      { rules: path, at: "path", values: { id: ".." }, want: 'path.id: must not be "." or ".."' },
    ],
    [
      "line break",
      {
        rules: path,
        at: "path",
        values: { id: "a\r\nb" },
        want: "path.id: must not contain a line break",
      },
    ],
    ["missing path value", { rules: path, at: "path", values: {}, want: "path.id: is required" }],
    [
      "path value of the wrong type",
      { rules: path, at: "path", values: { id: 7 }, want: "path.id: must be a string" },
    ],
  ])("%s", (_name, { rules, at, values, want }) => {
    expect(thrown(() => checkParams(rules, at, values, at))).toBe(want);
  });

  it("accepts valid values, leaves undefined ones out, and names bare fields with an empty prefix", () => {
    expect(() =>
      checkParams(
        query,
        "query",
        { team: "t", count: 5, topic: ["a", "b"], order: undefined, extra: undefined },
        "query",
      ),
    ).not.toThrow();
    expect(() => checkParams(path, "path", { id: "../x" }, "")).not.toThrow();
    expect(thrown(() => checkParams(query, "query", { team: "t", count: 0 }, ""))).toBe(
      "count: must be an integer from 1 to 1000",
    );
  });
});

describe("parseQuery (wire side)", () => {
  it.each<[string, string, Record<string, unknown>]>([
    [
      "coerces to the schema types and applies defaults",
      "team=t&fromDate=1.5&flag=true&order=latestFirst",
      { count: 1000, order: "latestFirst", fromDate: 1.5, flag: true, team: "t" },
    ],
    [
      "a repeatable parameter is always an array",
      "team=t&topic=a",
      { count: 1000, topic: ["a"], team: "t" },
    ],
    [
      "repeated keys collect",
      "team=t&topic=a&topic=b&count=5",
      { count: 5, topic: ["a", "b"], team: "t" },
    ],
    ["unknown names are ignored", "team=t&zzz=1", { count: 1000, team: "t" }],
  ])("%s", (_name, search, want) => {
    expect(parseQuery(query, new URLSearchParams(search))).toEqual(want);
  });

  it.each<[string, string, string]>([
    ["not an integer", "team=t&count=ten", "count: must be an integer from 1 to 1000"],
    ["out of range", "team=t&count=0", "count: must be an integer from 1 to 1000"],
    ["not a number", "team=t&fromDate=", "fromDate: must be a number"],
    ["not a boolean", "team=t&flag=yes", "flag: must be true or false"],
    ["closed enum", "team=t&order=up", 'order: must be one of "earliestFirst", "latestFirst"'],
    ["given twice", "team=t&team=u", "team: must appear at most once"],
    ["missing required", "", "team: is required"],
  ])("refuses %s", (_name, search, want) => {
    expect(thrown(() => parseQuery(query, new URLSearchParams(search)))).toBe(want);
  });

  it("parsePathParam coerces and checks one path value", () => {
    expect(
      parsePathParam({ name: "n", in: "path", required: true, schema: { type: "integer" } }, "42"),
    ).toBe(42);
    expect(
      thrown(() =>
        parsePathParam({ name: "n", in: "path", required: true, schema: { type: "integer" } }, "x"),
      ),
    ).toBe("n: must be an integer");
  });
});
