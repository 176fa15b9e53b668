// What both published documents say, kept: the audit log at both of its paths, records with the
// fields the documents name (and not `platform`, which neither names), index-type and model
// combinations the document admits without a stated rule.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { BOB, mgmt, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

it("answers the audit log at /auditlogs and at /v2/auditlogs, with the same entries", async () => {
  await mgmt(emu, "POST", "/v2/team", { team_name: "audit", copy_cc: false });
  const bare = await mgmt(emu, "GET", "/auditlogs");
  const v2 = await mgmt(emu, "GET", "/v2/auditlogs");
  expect(bare.status).toBe(200);
  expect(v2.status).toBe(200);
  expect(v2.body).toEqual(bare.body);
  expect((bare.body as unknown[]).length).toBeGreaterThan(0);
  expect((await mgmt(emu, "POST", "/v2/auditlogs")).status).toBe(405);
});

it("a database carries db_eviction (with eviction) and replicas, and no platform", async () => {
  const db = (
    await mgmt(emu, "POST", "/v2/redis/database", {
      database_name: "fields",
      platform: "aws",
      primary_region: "us-east-1",
      read_regions: ["eu-west-1"],
    })
  ).body as Record<string, unknown>;
  expect(db).not.toHaveProperty("platform");
  expect(db).toMatchObject({ eviction: false, db_eviction: false, replicas: 2 });
  const id = db["database_id"] as string;
  await mgmt(emu, "POST", `/v2/redis/enable-eviction/${id}`);
  await mgmt(emu, "POST", `/v2/redis/update-regions/${id}`, {
    read_regions: ["eu-west-1", "us-west-1"],
  });
  expect((await mgmt(emu, "GET", `/v2/redis/database/${id}`)).body).toMatchObject({
    eviction: true,
    db_eviction: true,
    replicas: 3,
    all_members: ["us-east-1", "eu-west-1", "us-west-1"],
  });
});

it("a team member carries the team's copy_cc; a vector index its reserved_price", async () => {
  const team = (await mgmt(emu, "POST", "/v2/team", { team_name: "cc", copy_cc: true })).body as {
    team_id: string;
  };
  const added = await mgmt(emu, "POST", "/v2/teams/member", {
    team_id: team.team_id,
    member_email: BOB.email,
    member_role: "dev",
  });
  expect(added.body).toMatchObject({ member_email: BOB.email, copy_cc: true });
  const members = (await mgmt(emu, "GET", `/v2/teams/${team.team_id}`)).body as object[];
  for (const m of members) expect(m).toHaveProperty("copy_cc", true);
  const index = await mgmt(emu, "POST", "/v2/vector/index", {
    name: "v",
    region: "us-east-1",
    similarity_function: "COSINE",
    dimension_count: 8,
  });
  expect(index.body).toHaveProperty("reserved_price", 0);
});

it.each([
  ["SPARSE", { embedding_model: "BGE_M3" }],
  ["DENSE", { sparse_embedding_model: "BM25" }],
])("creates a %s index with %j: the document states no rule against it", async (type, model) => {
  const res = await mgmt(emu, "POST", "/v2/vector/index", {
    name: "combo",
    region: "us-east-1",
    similarity_function: "COSINE",
    dimension_count: 8,
    index_type: type,
    ...model,
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ index_type: type, ...model });
});
