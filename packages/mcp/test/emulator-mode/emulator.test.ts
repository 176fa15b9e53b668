// `api-clients-mcp --emulator`: a first run with no account, over stdio.
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, textOf } from "../support/server.js";

describe("--emulator", () => {
  it("serves tools backed by an in-process emulator with seeded logs and a database", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "--emulator"],
      // No credentials at all: the emulator's are used.
      env: { PATH: process.env["PATH"] ?? "" },
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const logs = JSON.parse(
        textOf(
          await client.callTool({ name: "list_logs", arguments: { count: 10, fields: ["state"] } }),
        ),
      ) as { events: unknown[]; cursor?: string };
      expect(logs.events).toHaveLength(10);
      expect(logs.cursor).toBeDefined();
      const dbs = JSON.parse(
        textOf(await client.callTool({ name: "list_databases", arguments: {} })),
      ) as { items: { database_name: string; password: string }[] };
      expect(dbs.items.map((d) => d.database_name)).toEqual(["demo-cache"]);
      expect(dbs.items[0]!.password).toBe("***");
    } finally {
      await client.close();
    }
  });
});
