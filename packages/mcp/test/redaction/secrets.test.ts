// No credential in any result or error, across every tool; secret fields masked unless --reveal-secrets.
import { describe, expect, it } from "vitest";
import { toolSpecs } from "../../src/generated/tools.js";
import { connect, textOf, useEmulator } from "../support/server.js";

const h = useEmulator({ seedLogs: 200 });

/** Arguments for a tool: every required path parameter set to `id`, a body of `{}` when required. */
function argsFor(name: string, id: string): Record<string, unknown> {
  const spec = toolSpecs.find((t) => t.name === name);
  if (spec === undefined) return name === "message_history" ? { messageId: id } : {};
  const args: Record<string, unknown> = {};
  for (const p of spec.inputs) if (p.in === "path") args[p.name] = id;
  if ((spec.inputSchema["required"] as string[] | undefined)?.includes("body")) args["body"] = {};
  return args;
}

describe("no secret reaches the model", () => {
  it("0 credentials in any result or error across every tool", async () => {
    const db = (await h.m.request("createDatabase", {
      body: { database_name: "s", primary_region: "us-east-1", platform: "aws" },
    } as never)) as { database_id: string; password: string; rest_token: string };
    const secrets = [
      h.emu.credentials.logsToken,
      h.emu.credentials.apiKey,
      Buffer.from(`${h.emu.credentials.email}:${h.emu.credentials.apiKey}`).toString("base64"),
      db.password,
      db.rest_token,
    ];
    const client = await connect(h.emu, ["--allow-writes"]);
    const leaks: string[] = [];
    let calls = 0;
    try {
      for (const { name } of (await client.listTools()).tools) {
        for (const id of [db.database_id, "no-such-id"]) {
          const result = await client.callTool({ name, arguments: argsFor(name, id) });
          calls += 1;
          const text = JSON.stringify(result);
          for (const secret of secrets) if (text.includes(secret)) leaks.push(`${name}(${id})`);
        }
      }
    } finally {
      await client.close();
    }
    expect(calls).toBe(124);
    expect(leaks).toEqual([]);
  });

  it("secret fields read *** by default and as they are with --reveal-secrets", async () => {
    const db = (await h.m.request("createDatabase", {
      body: { database_name: "s", primary_region: "us-east-1", platform: "aws" },
    } as never)) as { database_id: string; password: string };
    for (const [flags, want] of [
      [[], "***"],
      [["--reveal-secrets"], db.password],
    ] as const) {
      const client = await connect(h.emu, flags);
      try {
        const result = await client.callTool({
          name: "get_database",
          arguments: { id: db.database_id },
        });
        expect((JSON.parse(textOf(result)) as { password: string }).password).toBe(want);
        expect((result.structuredContent as { password: string }).password).toBe(want);
      } finally {
        await client.close();
      }
    }
  });
});
