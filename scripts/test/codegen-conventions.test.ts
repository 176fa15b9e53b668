// The spec conventions the codegen understands, on a small fixture spec: open value sets
// (`x-extensible-enum`), `deprecated`, `nullable`, repeatable query filters, path-level parameters,
// `x-idempotent`, `x-irreversible` and `x-already-applied`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ES module without type declarations
import { operationTable, schemaTypes } from "../generate.mjs";
// @ts-expect-error -- plain ES module without type declarations
import { compileOperations, compileSchema } from "../lib/openapi.mjs";

const FIXTURE = "scripts/test/fixtures/conventions.openapi.yaml";
const repo = new URL("../..", import.meta.url).pathname;
const doc = parse(readFileSync(join(repo, FIXTURE), "utf8"));

describe("compileOperations", () => {
  const ops = compileOperations(doc) as Record<string, unknown>[];
  const byId = Object.fromEntries(ops.map((op) => [op["operationId"], op]));

  it("merges path-level parameters, keeps a repeatable filter's oneOf, drops descriptions and defaults", () => {
    expect(byId["listThingEvents"]).toEqual({
      operationId: "listThingEvents",
      method: "GET",
      irreversible: false,
      path: "/v1/things/{thing_id}",
      idempotent: true,
      success: "array",
      auth: "bearer",
      params: [
        { name: "thing_id", in: "path", required: true, schema: { type: "string" } },
        {
          name: "topic",
          in: "query",
          required: false,
          schema: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        },
        { name: "oldFilter", in: "query", required: false, schema: { type: "string" } },
        {
          name: "count",
          in: "query",
          required: false,
          schema: { type: "integer", minimum: 1, maximum: 100 },
        },
      ],
    });
  });

  it("reads x-idempotent, x-irreversible, x-already-applied and security; an open set compiles to no enum", () => {
    expect(byId["enableThing"]).toMatchObject({
      method: "POST",
      idempotent: true,
      irreversible: true,
      success: "acknowledgement",
      auth: "basic",
      alreadyApplied: "already enabled",
      body: {
        required: true,
        schema: {
          type: "object",
          required: ["region"],
          additionalProperties: false,
          properties: {
            region: { type: "string" },
            plan: { type: "string", enum: ["free", "paid"] },
            label: { type: "string", nullable: true },
            legacy: { type: "boolean" },
          },
        },
      },
    });
  });

  it("keeps known values and defaults only when asked (the emulator's tables)", () => {
    const ref = { $ref: "#/components/schemas/PrimaryRegion" };
    expect(compileSchema(doc, ref)).toEqual({ type: "string" });
    expect(compileSchema(doc, ref, { known: true })).toEqual({
      type: "string",
      known: ["us-east-1", "eu-west-1"],
    });
    const withDefaults = compileOperations(doc, { defaults: true }) as {
      params: { name: string; schema: unknown }[];
    }[];
    expect(withDefaults[0]?.params.find((p) => p.name === "count")?.schema).toMatchObject({
      default: 10,
    });
  });

  it("fails on a $ref that points nowhere, a keyword the checker cannot enforce, or a half-open set", () => {
    expect(() => compileSchema(doc, { $ref: "#/components/schemas/Nope" })).toThrow(/unresolved/);
    expect(() => compileSchema(doc, { allOf: [{ type: "string" }] })).toThrow(/allOf/);
    expect(() =>
      compileSchema(doc, { type: "string", enum: ["a"], "x-extensible-enum": ["a"] }),
    ).toThrow(/x-extensible-enum/);
    expect(() => compileSchema(doc, { "x-extensible-enum": ["a"] })).toThrow(/type: string/);
  });
});

describe("generated files", () => {
  let dir: string | undefined;
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("the operation table carries the rules, alreadyApplied and the route of each operation, once", async () => {
    const table: string = await operationTable(FIXTURE);
    expect(table).toContain('alreadyApplied: "already enabled"');
    expect(table).toMatch(/enableThing: \{\s*method: "POST",\s*path: "\/v1\/things\/\{thing_id\}"/);
    // One table: the pipeline derives the route of each operation from it (no second `routes`).
    expect(table).not.toContain("routes");
    expect(table).not.toContain("core/internal");
    expect(table).not.toMatch(/description|known|deprecated/);
  });

  it("types an open set as its known values or any string, a closed one strictly, a filter as string | string[]", async () => {
    const types: string = await schemaTypes(FIXTURE);
    expect(types).toContain('PrimaryRegion: "us-east-1" | "eu-west-1" | (string & {});');
    expect(types).toMatch(
      /export const primaryRegionKnownValues = \["us-east-1", "eu-west-1"\] as const;/,
    );

    dir = mkdtempSync(join(tmpdir(), "codegen-conventions-"));
    writeFileSync(join(dir, "schema.ts"), types);
    writeFileSync(
      join(dir, "use.ts"),
      [
        'import type { components, operations } from "./schema.js";',
        'import { primaryRegionKnownValues } from "./schema.js";',
        'type Body = components["schemas"]["EnableRequest"];',
        'type Query = NonNullable<operations["listThingEvents"]["parameters"]["query"]>;',
        'export const known: Body = { region: "us-east-1", label: null };',
        'export const newer: Body = { region: "ap-new-1", plan: "free" };',
        "// @ts-expect-error -- a closed set refuses other values",
        'export const closed: Body = { region: "us-east-1", plan: "gold" };',
        'export const one: Query = { topic: "a" };',
        'export const many: Query = { topic: ["a", "b"] };',
        "export const first: string = primaryRegionKnownValues[0];",
      ].join("\n"),
    );
    const program = ts.createProgram([join(dir, "use.ts")], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      exactOptionalPropertyTypes: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toEqual([]);
  });
});
