// What the clients' tables and checker carry: the structural rules (types, required fields, enums,
// ranges, oneOf), while string lengths, patterns and item counts stay with the service and the
// emulator's tables (they cost every client bundle code and are the service's to refuse).
import { describe, expect, it } from "vitest";
// @ts-expect-error -- plain ES module without type declarations
import { compileOperations } from "../lib/openapi.mjs";
import {
  checkQuery,
  checkRequest,
  checkValue,
  type OperationRules,
} from "../../packages/core/src/internal.js";

const doc = {
  paths: {
    "/things": {
      post: {
        operationId: "createThing",
        parameters: [{ name: "tag", in: "query", schema: { type: "string", pattern: "^[a-z]+$" } }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                properties: {
                  name: { type: "string", minLength: 1, maxLength: 3 },
                  tags: { type: "array", items: { type: "string" }, maxItems: 1 },
                },
              },
            },
          },
        },
      },
    },
  },
};

describe("client tables", () => {
  it("leave lengths, patterns and item counts to the service; the emulator's tables keep them", () => {
    const [client] = compileOperations(doc, { client: true }) as OperationRules[];
    const [service] = compileOperations(doc, { known: true }) as OperationRules[];
    expect(JSON.stringify(client)).not.toMatch(/minLength|maxLength|pattern|maxItems/);
    expect(JSON.stringify(service)).toMatch(/minLength.*maxLength.*maxItems/);
    expect(JSON.stringify(service)).toContain("pattern");
    // The client still refuses wrong types and missing fields, and sends what the service judges.
    expect(() => checkRequest(client!, undefined, { tag: 1 }, { value: { name: "a" } })).toThrow(
      "tag: must be a string",
    );
    expect(() => checkRequest(client!, undefined, undefined, { value: {} })).toThrow(
      "body.name: is required",
    );
    expect(checkRequest(client!, undefined, { tag: "A" }, { value: { name: "long" } })).toEqual([]);
    expect(() => checkValue(service!.body!.schema, { name: "long" }, "body")).toThrow(
      "body.name: must be a string of 1 to 3 characters",
    );
  });

  it("a client of query-only operations refuses one with a path parameter or a body instead of skipping it", () => {
    const [client] = compileOperations(doc, { client: true }) as OperationRules[];
    expect(() => checkQuery(client!, undefined, undefined, { value: {} })).toThrow(TypeError);
    const withPath: OperationRules = {
      params: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    };
    expect(() => checkQuery(withPath, { id: "a" }, undefined, undefined)).toThrow(TypeError);
    expect(checkQuery({ params: client!.params }, undefined, { tag: "a" }, undefined)).toBe(
      undefined,
    );
    expect(() => checkQuery({ params: client!.params }, undefined, { tag: 1 }, undefined)).toThrow(
      "tag: must be a string",
    );
    // checkRequest keeps the path-segment rules.
    expect(() => checkRequest(withPath, { id: ".." }, undefined, undefined)).toThrow(
      'id: must not be "." or ".."',
    );
  });
});
