// Issue #12, items 5 and 6: `raw` refuses what the ergonomic methods refuse, before anything is sent:
// a `.`/`..` path segment (which URL resolution would turn into another endpoint) and a lone surrogate.
import { ValidationError } from "@api-clients/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ManagementClient } from "../../src/index.js";
import { clientFor } from "../support/client.js";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.js";

let server: RecordingServer;
let m: ManagementClient;
beforeAll(async () => {
  server = await startRecordingServer();
  m = clientFor(server, { maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function refused(call: () => Promise<unknown>): Promise<ValidationError> {
  const error = await Promise.resolve()
    .then(call)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(server.requests).toHaveLength(0);
  return error as ValidationError;
}

describe("raw refuses dot segments", () => {
  it.each([".", ".."])(
    'DELETE /v2/redis/database/{id} with id "%s" (would be DELETE /v2/redis/)',
    async (id) => {
      const error = await refused(() =>
        m.raw.DELETE("/v2/redis/database/{id}", { params: { path: { id } } }),
      );
      expect(error.message).toBe('id: must not be "." or ".."');
    },
  );

  it('POST /v2/vector/index/{id}/transfer with id ".." (would be POST /v2/vector/transfer)', async () => {
    const error = await refused(() =>
      m.raw.POST("/v2/vector/index/{id}/transfer", {
        params: { path: { id: ".." } },
        body: { target_account: "someone" },
      }),
    );
    expect(error.field).toBe("id");
  });

  it("the ergonomic methods refuse them too", async () => {
    await refused(() => m.databases.delete(".."));
    await refused(() => m.vector.transfer("..", { target_account: "someone" }));
  });

  it("an id that merely contains dots is sent, encoded into its segment", async () => {
    await m.raw.DELETE("/v2/redis/database/{id}", {
      params: { path: { id: "../x" } },
      parseAs: "text",
    });
    expect(server.requests[0]?.path).toBe("/v2/redis/database/..%2Fx");
  });
});

describe("a lone surrogate is a ValidationError naming the field", () => {
  it.each([
    ["databases.get", (c: ManagementClient) => c.databases.get("db\uD800")],
    ["databases.rename", (c: ManagementClient) => c.databases.rename("\uDC00", { name: "n" })],
    [
      "raw GET",
      (c: ManagementClient) =>
        c.raw.GET("/v2/redis/database/{id}", { params: { path: { id: "x\uDBFF" } } }),
    ],
  ])("%s", async (_name, call) => {
    const error = await refused(() => call(m));
    expect(error.field).toMatch(/(^|\.)id$/);
    expect(error.rule).toBe("must be well-formed Unicode (it holds a lone surrogate)");
  });
});
