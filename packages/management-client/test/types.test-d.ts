import { describe, expectTypeOf, it } from "vitest";
import { createManagementClient } from "../src/index.js";
import type {
  Backup,
  Database,
  DatabaseStats,
  ManagementClient,
  RequestOptions,
  Team,
  TeamMember,
  VectorIndex,
} from "../src/index.js";

declare const m: ManagementClient;

describe("return types", () => {
  it("records and arrays are typed from the spec", () => {
    expectTypeOf(m.databases.create({ name: "n" })).resolves.toEqualTypeOf<Database>();
    expectTypeOf(m.databases.get("id")).resolves.toEqualTypeOf<Database>();
    expectTypeOf(m.databases.list()).resolves.toEqualTypeOf<Database[]>();
    expectTypeOf(m.databases.stats("id")).resolves.toEqualTypeOf<DatabaseStats>();
    expectTypeOf(m.databases.rename("id", { name: "n" })).resolves.toEqualTypeOf<Database>();
    expectTypeOf(m.databases.resetPassword("id")).resolves.toEqualTypeOf<Database>();
    expectTypeOf(m.databases.enableTls("id")).resolves.toEqualTypeOf<Database>();
    expectTypeOf(m.backups.list("id")).resolves.toEqualTypeOf<Backup[]>();
    expectTypeOf(m.teams.create({ team_name: "t", copy_cc: false })).resolves.toEqualTypeOf<Team>();
    expectTypeOf(m.teams.list()).resolves.toEqualTypeOf<Team[]>();
    expectTypeOf(m.teams.listMembers("t")).resolves.toEqualTypeOf<TeamMember[]>();
    expectTypeOf(
      m.teams.addMember({ team_id: "t", member_email: "a@b.c", member_role: "dev" }),
    ).resolves.toEqualTypeOf<TeamMember>();
    expectTypeOf(m.vector.list()).resolves.toEqualTypeOf<VectorIndex[]>();
    expectTypeOf(m.vector.get("i")).resolves.toEqualTypeOf<VectorIndex>();
  });

  it("acknowledged operations resolve to void", () => {
    expectTypeOf(m.databases.delete("id")).resolves.toBeVoid();
    expectTypeOf(m.databases.enableEviction("id")).resolves.toBeVoid();
    expectTypeOf(m.databases.moveToTeam({ team_id: "t", database_id: "d" })).resolves.toBeVoid();
    expectTypeOf(m.backups.create("id", { name: "b" })).resolves.toBeVoid();
    expectTypeOf(m.teams.removeMember({ team_id: "t", member_email: "a@b.c" })).resolves.toBeVoid();
    expectTypeOf(m.vector.resetTokens("i")).resolves.toBeVoid();
    expectTypeOf(m.vector.setPlan("i", { target_plan: "free" })).resolves.toBeVoid();
  });

  it("record fields are typed and unknown fields stay readable", async () => {
    const db = await m.databases.get("id");
    // The reference marks no record field as required: reading one needs a check.
    expectTypeOf(db.database_id).toEqualTypeOf<string | undefined>();
    expectTypeOf(db.read_regions).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(db["a_field_added_later"]).toEqualTypeOf<unknown>();
  });

  it("every method takes request options last", () => {
    expectTypeOf(m.databases.list).parameter(0).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(m.databases.get).parameter(2).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(m.backups.delete).parameter(2).toEqualTypeOf<RequestOptions | undefined>();
  });
});

describe("inputs that do not compile", () => {
  it("closed value sets", () => {
    // Regions, plans and models are open sets (the service adds values): any string compiles.
    void m.databases.create({ database_name: "n", primary_region: "mars-1", plan: "fixed_2tb" });
    void m.databases.updateRegions("id", { read_regions: ["ap-northeast-1", "us-east-2"] });
    void m.vector.create({
      name: "i",
      region: "us-central1",
      similarity_function: "COSINE",
      dimension_count: 3,
      index_type: "HYBRID",
      sparse_embedding_model: "BM25",
      type: "paid",
    });
    void m.vector.create({
      name: "i",
      region: "us-east-1",
      // @ts-expect-error: not a similarity function (a closed set)
      similarity_function: "EUCLID",
      dimension_count: 3,
    });
    // @ts-expect-error: owner is never given
    void m.teams.addMember({ team_id: "t", member_email: "a@b.c", member_role: "owner" });
    // credentials is an open set ("hide" known; the reference types it as any string).
    void m.databases.get("id", { credentials: "show" });
  });

  it("missing required fields", () => {
    // @ts-expect-error: copy_cc is required
    void m.teams.create({ team_name: "t" });
    // @ts-expect-error: dimension_count is required
    void m.vector.create({ name: "i", region: "us-east-1", similarity_function: "COSINE" });
    // @ts-expect-error: database_id is required
    void m.databases.moveToTeam({ team_id: "t" });
    // @ts-expect-error: backup_id is required
    void m.backups.restore("db", {});
    // @ts-expect-error: the id is required
    void m.databases.get();
    // @ts-expect-error: one of database_name and name is required
    void m.databases.create({});
    // @ts-expect-error: one of database_name and name is required, whatever else is given
    void m.databases.create({ primary_region: "us-east-1", read_regions: ["eu-west-1"] });
    void m.databases.create({ database_name: "n", primary_region: "us-east-1" });
  });

  it("unknown fields", () => {
    // @ts-expect-error: tsl is a typo of tls
    void m.databases.create({ name: "n", tsl: true });
    // @ts-expect-error: removeMember takes no role
    void m.teams.removeMember({ team_id: "t", member_email: "a@b.c", member_role: "dev" });
    // @ts-expect-error: rename takes only a name
    void m.vector.rename("i", { name: "n", region: "us-east-1" });
  });

  it("wrong value types", () => {
    void m.vector.create({
      name: "i",
      region: "us-east-1",
      similarity_function: "COSINE",
      // @ts-expect-error: dimension_count is a number
      dimension_count: "3",
    });
    // @ts-expect-error: apiKey is a string (or left out, to read UPSTASH_API_KEY)
    createManagementClient({ email: "a@b.c", apiKey: 42 });
  });

  it("valid inputs compile, including both spellings of EUCLIDEAN", () => {
    void m.vector.create({
      name: "i",
      region: "us-east-1",
      similarity_function: "EUCLIDEAN",
      dimension_count: 3,
    });
    void m.vector.create({
      name: "i",
      region: "eu-west-1",
      similarity_function: "EUCLIDIAN",
      dimension_count: 3,
    });
    void m.databases.create({ name: "n", region: "us-east-1" });
    void m.databases.get("id", { credentials: "hide" }, { timeoutMs: 1_000, maxRetries: 0 });
  });
});
