// Whether the client refuses a region it does not know follows the spec: a set marked open
// (`x-extensible-enum`, the service adds regions over time) is sent as given, through the method and
// through `raw`; a closed `enum` is refused by the method before anything is sent. The emulator, which
// plays today's service, refuses unknown values either way
// (packages/emulator/test/validation/open-value-sets.test.ts).
import { readFileSync } from "node:fs";
import { ValidationError } from "@api-clients/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { CreateDatabaseRequest, PrimaryRegion } from "../../src/index.js";
import { clientFor } from "../support/client.js";
import { database } from "../support/fixtures.js";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.js";

const spec = parse(
  readFileSync(new URL("../../../../specs/management.openapi.yaml", import.meta.url), "utf8"),
) as { components: { schemas: Record<string, Record<string, unknown>> } };
const primary = spec.components.schemas["PrimaryRegion"] ?? {};
const open = Array.isArray(primary["x-extensible-enum"]);

const UNKNOWN = "mars-1" as PrimaryRegion;
const body: CreateDatabaseRequest = { name: "far", primary_region: UNKNOWN };

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

describe.runIf(open)("PrimaryRegion is open in the spec: an unknown region is sent", () => {
  it("databases.create() sends it and returns the record", async () => {
    server.reply({ body: { ...database, primary_region: UNKNOWN } });
    const db = await clientFor(server).databases.create(body);
    expect(db.primary_region).toBe(UNKNOWN);
    expect(server.requests.map((r) => [r.method, r.path, JSON.parse(r.body)])).toEqual([
      ["POST", "/v2/redis/database", body],
    ]);
  });

  it("raw.POST sends it too", async () => {
    server.reply({ body: { ...database, primary_region: UNKNOWN } });
    const { data, error } = await clientFor(server).raw.POST("/v2/redis/database", { body });
    expect(error).toBeUndefined();
    expect(data?.primary_region).toBe(UNKNOWN);
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([body]);
  });
});

describe.runIf(!open)(
  "PrimaryRegion is a closed enum in the spec: an unknown region is refused",
  () => {
    // Collected even when skipped: read the list only when the set is closed.
    const values = open ? [] : (primary["enum"] as string[]);
    const rule = `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;

    it("databases.create() throws ValidationError and sends nothing", async () => {
      const call = clientFor(server).databases.create(body);
      await expect(call).rejects.toBeInstanceOf(ValidationError);
      await expect(call).rejects.toThrow(`body.primary_region: ${rule}`);
      expect(server.requests).toEqual([]);
    });
  },
);
