// The emulator plays today's service: a value outside a set's known values is refused with the
// service's 400, also for an open set (`x-extensible-enum`), which the clients leave open because the
// service may add values later. The expected lists come from the generated tables, not from here.
import { ValidationError } from "@api-clients/core";
import { checkValue, type Schema } from "@api-clients/core/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { valueSets, type SpecOperation } from "../../src/generated/operations.js";
import { checkRequest } from "../../src/internal/spec-validation.js";
import { mgmt, start } from "../helpers.js";

const oneOf = (values: readonly string[]) =>
  `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;

describe("over HTTP: a region the service does not know is refused", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await start();
  });
  afterAll(() => emu.close());

  const primary = valueSets.management.PrimaryRegion as readonly string[];
  const read = valueSets.management.ReadRegion as readonly string[];

  it('primary_region "mars-1" → 400 naming the field and the known regions', async () => {
    const res = await mgmt(emu, "POST", "/v2/redis/database", {
      name: "x",
      primary_region: "mars-1",
    });
    expect(res.status).toBe(400);
    const error = `primary_region: ${oneOf(primary)}`;
    expect(res.body).toEqual({ error, code: "BAD_REQUEST", message: error });
  });

  it('read_regions ["mars-1"] → 400 naming the item', async () => {
    const res = await mgmt(emu, "POST", "/v2/redis/database", {
      name: "x",
      primary_region: primary[0],
      read_regions: ["mars-1"],
    });
    expect(res.status).toBe(400);
    const error = `read_regions[0]: ${oneOf(read)}`;
    expect(res.body).toEqual({ error, code: "BAD_REQUEST", message: error });
  });

  it("a known region is accepted", async () => {
    const res = await mgmt(emu, "POST", "/v2/redis/database", {
      name: "x",
      primary_region: primary[0],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ primary_region: primary[0] });
  });
});

describe("checkRequest closes open sets (known values) wherever they appear", () => {
  const region: Schema = { type: "string", known: ["us-east-1", "eu-west-1"] };
  const op: SpecOperation = {
    api: "management",
    operationId: "syntheticOpenSets",
    method: "POST",
    path: "/v1/things/{region}",
    auth: "basic",
    params: [
      { name: "region", in: "path", required: true, schema: region },
      { name: "near", in: "query", required: false, schema: region },
      {
        name: "also",
        in: "query",
        required: false,
        schema: { oneOf: [region, { type: "array", items: region }] },
      },
    ],
    body: {
      required: false,
      schema: {
        type: "object",
        properties: { primary: region, reads: { type: "array", items: region } },
      },
    },
  };
  const known = "us-east-1";
  const q = (query: Record<string, string | string[]>) =>
    new URLSearchParams(
      Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => [k, x])),
    );

  it.each([
    ["path parameter", q({}), { region: "mars-1" }, undefined, "region"],
    ["query parameter", q({ near: "mars-1" }), { region: known }, undefined, "near"],
    [
      "repeated query parameter",
      q({ also: [known, "mars-1"] }),
      { region: known },
      undefined,
      "also[1]",
    ],
    ["body field", q({}), { region: known }, { primary: "mars-1" }, "primary"],
    ["body array item", q({}), { region: known }, { reads: [known, "mars-1"] }, "reads[1]"],
  ] as const)("%s outside the known values → ValidationError", (_, search, path, body, field) => {
    let error: unknown;
    try {
      checkRequest(op, search, path, body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe(
      `${field}: ${oneOf(["us-east-1", "eu-west-1"])}`,
    );
  });

  it("known values everywhere pass", () => {
    const checked = checkRequest(
      op,
      q({ near: "eu-west-1", also: [known, "eu-west-1"] }),
      { region: known },
      { primary: known, reads: ["eu-west-1"] },
    );
    expect(checked.query).toEqual({ near: "eu-west-1", also: [known, "eu-west-1"] });
  });

  it("core's checker stays open for clients: without closedKnown an unknown value passes", () => {
    expect(() => checkValue(region, "mars-1", "region")).not.toThrow();
    expect(() => checkValue(region, "mars-1", "region", { closedKnown: true })).toThrow(
      /^region: must be one of "us-east-1", "eu-west-1"$/,
    );
    // The positional `unknown` list still works, and `{ unknown }` collects the same.
    const schema: Schema = { type: "object", properties: { a: region } };
    const positional: string[] = [];
    const named: string[] = [];
    checkValue(schema, { a: "mars-1", typo: 1 }, "body", positional);
    checkValue(schema, { a: "mars-1", typo: 1 }, "body", { unknown: named });
    expect(positional).toEqual(["body.typo"]);
    expect(named).toEqual(["body.typo"]);
  });
});
