// A destructive call is sent only once a person confirmed it: counted in the emulator's request log.
import { describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Backend } from "../../src/internal/backend.js";
import { createServerOver, createShared } from "../../src/internal/server.js";
import { credentialsEnv, textOf, useEmulator } from "../support/server.js";
import { connectOver, TRANSPORTS } from "../support/transports.js";

const h = useEmulator();

/** The deleteDatabase requests the emulator received. */
const deletes = () => h.emu.requests().filter((r) => r.operationId === "deleteDatabase").length;

async function twoDatabases() {
  const a = await h.m.request("createDatabase", {
    body: { database_name: "a", primary_region: "us-east-1", platform: "aws" },
  } as never);
  const b = await h.m.request("createDatabase", {
    body: { database_name: "b", primary_region: "us-east-1", platform: "aws" },
  } as never);
  return [(a as { database_id: string }).database_id, (b as { database_id: string }).database_id];
}

interface Preview {
  confirmation_required: {
    request: { method: string; url: string };
    confirmation_token: string;
  };
}

describe.each(TRANSPORTS)(
  "two-step confirmation (a client without elicitation) over %s",
  (transport) => {
    it("0 requests without a token, 0 with a token of other arguments, exactly 1 with the token, 0 on its second use", async () => {
      const [a, b] = await twoDatabases();
      const client = await connectOver(transport, h.emu, ["--allow-writes"]);
      try {
        const first = await client.callTool({ name: "delete_database", arguments: { id: a } });
        expect(first.isError).toBeFalsy();
        const preview = first.structuredContent as unknown as Preview;
        expect(preview.confirmation_required.request.method).toBe("DELETE");
        expect(preview.confirmation_required.request.url).toBe(
          `${h.emu.url}/v2/redis/database/${a}`,
        );
        expect(deletes()).toBe(0);

        const token = preview.confirmation_required.confirmation_token;
        const other = await client.callTool({
          name: "delete_database",
          arguments: { id: b, confirmation_token: token },
        });
        expect(other.isError).toBe(true);
        expect(textOf(other)).toContain("issued for other arguments");
        expect(deletes()).toBe(0);

        // The refused attempt does not spend the token: it still confirms `a`.
        const token2 = token;
        const sent = await client.callTool({
          name: "delete_database",
          arguments: { id: a, confirmation_token: token2 },
        });
        expect(sent.isError).toBeFalsy();
        expect(textOf(sent)).toBe("OK");
        expect(deletes()).toBe(1);

        const reused = await client.callTool({
          name: "delete_database",
          arguments: { id: a, confirmation_token: token2 },
        });
        expect(reused.isError).toBe(true);
        expect(textOf(reused)).toContain("already used");
        expect(deletes()).toBe(1);
        expect((await h.m.databases.list()).map((d) => d.database_id)).toEqual([b]);
      } finally {
        await client.close();
      }
    });

    it("a non-destructive write is sent at once", async () => {
      const [a] = await twoDatabases();
      const client = await connectOver(transport, h.emu, ["--allow-writes"]);
      try {
        const renamed = await client.callTool({
          name: "rename_database",
          arguments: { id: a, body: { name: "renamed" } },
        });
        expect(renamed.isError).toBeFalsy();
        expect(h.emu.requests().filter((r) => r.operationId === "renameDatabase")).toHaveLength(1);
      } finally {
        await client.close();
      }
    });
  },
);

// Over stdio only: over stateless Streamable HTTP the server never elicits (see below).
describe("confirmation through elicitation over stdio", () => {
  it.each([
    ["accepts", { action: "accept", content: { confirm: true } }, 1],
    ["declines", { action: "decline" }, 0],
    ["accepts without ticking confirm", { action: "accept", content: { confirm: false } }, 0],
  ] as const)("the person %s: the number of requests it sends", async (_, answer, want) => {
    const [a] = await twoDatabases();
    const client = await connectOver("stdio", h.emu, ["--allow-writes"], {
      elicitation: { form: {} },
    });
    const messages: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      messages.push(String((request.params as { message: string }).message));
      return answer as never;
    });
    try {
      await client.callTool({ name: "delete_database", arguments: { id: a } });
      expect(messages).toHaveLength(1);
      expect(messages[0]).toContain(`DELETE ${h.emu.url}/v2/redis/database/${a}`);
      expect(messages[0]).not.toContain(h.emu.credentials.apiKey);
      expect(deletes()).toBe(want);
    } finally {
      await client.close();
    }
  });
});

// Stateless Streamable HTTP cannot take the client's answer to an elicitation (it would arrive as a
// new POST, on another server instance): the server falls back to the two-step token there.
describe("confirmation over stateless HTTP, with a client that supports elicitation", () => {
  it("never asks through elicitation: a preview and a token (0 requests), then exactly 1 with the token", async () => {
    const [a] = await twoDatabases();
    const client = await connectOver("http", h.emu, ["--allow-writes"], {
      elicitation: { form: {} },
    });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return { action: "accept", content: { confirm: true } };
    });
    try {
      const first = await client.callTool(
        { name: "delete_database", arguments: { id: a } },
        undefined,
        { timeout: 5_000 },
      );
      expect(asked).toBe(0);
      expect(deletes()).toBe(0);
      const token = (first.structuredContent as unknown as Preview).confirmation_required
        .confirmation_token;
      const sent = await client.callTool({
        name: "delete_database",
        arguments: { id: a, confirmation_token: token },
      });
      expect(textOf(sent)).toBe("OK");
      expect(asked).toBe(0);
      expect(deletes()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("a server made for a transport that cannot elicit never asks, even when the client declared elicitation in its session", async () => {
    const [a] = await twoDatabases();
    const backend = new Backend({
      env: credentialsEnv(h.emu),
      logs: { baseUrl: h.emu.url },
      management: { baseUrl: h.emu.url },
    });
    const server = createServerOver(
      createShared(backend),
      { allowWrites: true },
      { canElicit: false },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client(
      { name: "test", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(clientSide);
    try {
      expect(server.getClientCapabilities()?.elicitation).toBeDefined();
      const first = await client.callTool({ name: "delete_database", arguments: { id: a } });
      expect(
        (first.structuredContent as unknown as Preview).confirmation_required.confirmation_token,
      ).toMatch(/^v1\./);
      expect(asked).toBe(0);
      expect(deletes()).toBe(0);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
