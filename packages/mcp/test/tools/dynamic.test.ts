// `--tools dynamic`: three tools that list, describe and call every operation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { missingAnnotations, textOf, useEmulator } from "../support/server.js";
import { connectOver, TRANSPORTS } from "../support/transports.js";

const h = useEmulator({ seedLogs: 20 });

describe.each(TRANSPORTS)("--tools dynamic over %s", (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectOver(transport, h.emu, ["--tools", "dynamic", "--allow-writes"]);
  });
  afterAll(() => client.close());

  it("lists three tools, each with the four annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "list_operations",
      "describe_operation",
      "call_operation",
    ]);
    expect(missingAnnotations(tools)).toEqual([]);
    expect(tools[2]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it("list, describe, then call an operation through the clients", async () => {
    const listed = JSON.parse(
      textOf(await client.callTool({ name: "list_operations", arguments: { toolset: "logs" } })),
    ) as { operations: { name: string; kind: string }[] };
    expect(listed.operations.map((o) => o.name)).toEqual([
      "list_logs",
      "list_events",
      "message_history",
      "failures_by_url",
    ]);
    expect(listed.operations[0]!.kind).toBe("read");
    const described = JSON.parse(
      textOf(
        await client.callTool({ name: "describe_operation", arguments: { name: "list_logs" } }),
      ),
    ) as { inputSchema: { properties: Record<string, unknown> }; annotations: object };
    expect(Object.keys(described.inputSchema.properties)).toContain("state");
    expect(described.annotations).toMatchObject({ readOnlyHint: true });
    const called = await client.callTool({
      name: "call_operation",
      arguments: { name: "list_logs", arguments: { count: 5, fields: ["messageId"] } },
    });
    expect((JSON.parse(textOf(called)) as { events: unknown[] }).events).toHaveLength(5);
    expect(h.emu.requests().map((r) => r.operationId)).toEqual(["listLogs"]);
  });

  it("a destructive operation through call_operation still needs the confirmation token", async () => {
    const team = (await h.m.request("createTeam", {
      body: { team_name: "t", copy_cc: false },
    } as never)) as { team_id: string };
    const call = (extra: object = {}) =>
      client.callTool({
        name: "call_operation",
        arguments: { name: "delete_team", arguments: { id: team.team_id, ...extra } },
      });
    const preview = (await call()).structuredContent as {
      confirmation_required: { confirmation_token: string };
    };
    const deletes = () => h.emu.requests().filter((r) => r.operationId === "deleteTeam").length;
    expect(deletes()).toBe(0);
    await call({ confirmation_token: preview.confirmation_required.confirmation_token });
    expect(deletes()).toBe(1);
  });
});
