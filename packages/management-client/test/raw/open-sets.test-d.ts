// `raw` reads open value sets as strings, keeps closed enums closed and required parameters required.
// openapi-fetch 0.17's `Readable` alone turns `"active" | (string & {})` into an object type
// (openapi-typescript issue 2765, fix proposed in PR 2766); core's `RawClient` works around it, and
// this test is what tells when the workaround can go.
import { describe, expectTypeOf, it } from "vitest";
import type { ManagementClient } from "../../src/index.js";

declare const m: ManagementClient;

describe("raw and open value sets", () => {
  it("reads an open-set response field into a string", async () => {
    const { data } = await m.raw.GET("/v2/redis/databases");
    if (data === undefined) return;
    const state: string | undefined = data[0]?.state;
    const type: string | undefined = data[0]?.type;
    const index = await m.raw.GET("/v2/vector/index/{id}", { params: { path: { id: "i" } } });
    const similarity: string | undefined = index.data?.similarity_function;
    expectTypeOf(data[0]!.state).toEqualTypeOf<
      "active" | "suspended" | "passive" | (string & {}) | undefined
    >();
    void [state, type, similarity];
  });

  it("through raw.request too", async () => {
    const { data } = await m.raw.request("get", "/v2/search/{id}", {
      params: { path: { id: "s" } },
    });
    const region: string | undefined = data?.region;
    void region;
  });

  it("keeps a closed enum closed, in a request body and in a response", async () => {
    void m.raw.POST("/v2/teams/member", {
      body: { team_id: "t", member_email: "a@b.c", member_role: "dev" },
    });
    void m.raw.POST("/v2/teams/member", {
      // @ts-expect-error member_role is a closed enum: "owner" is not one of its values
      body: { team_id: "t", member_email: "a@b.c", member_role: "owner" },
    });
    const { data } = await m.raw.GET("/v2/redis/database/{id}", { params: { path: { id: "d" } } });
    expectTypeOf(data!.db_acl_enabled).toEqualTypeOf<"true" | "false" | undefined>();
  });

  it("keeps a required path parameter required", () => {
    void m.raw.GET("/v2/redis/database/{id}", { params: { path: { id: "d" } } });
    // @ts-expect-error the path parameter `id` is required
    void m.raw.GET("/v2/redis/database/{id}", { params: { path: {} } });
    // @ts-expect-error the params (with the path) are required
    void m.raw.GET("/v2/redis/database/{id}", {});
    // @ts-expect-error the init argument itself is required
    void m.raw.GET("/v2/redis/database/{id}");
  });
});
