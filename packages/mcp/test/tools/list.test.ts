import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { toolSpecs } from "../../src/generated/tools.js";
import { missingAnnotations, useEmulator } from "../support/server.js";
import { connectOver, TRANSPORTS } from "../support/transports.js";

const h = useEmulator();

describe.each(TRANSPORTS)("tools/list over %s", (transport) => {
  let all: Tool[];
  let readOnly: Tool[];
  const clients: Client[] = [];
  beforeAll(async () => {
    const writes = await connectOver(transport, h.emu, ["--allow-writes"]);
    const reads = await connectOver(transport, h.emu);
    clients.push(writes, reads);
    all = (await writes.listTools()).tools;
    readOnly = (await reads.listTools()).tools;
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  it("with --allow-writes, lists one tool per operation of both specs, and the two task tools", () => {
    expect(all.map((t) => t.name).sort()).toEqual(
      [...toolSpecs.map((t) => t.name), "message_history", "failures_by_url"].sort(),
    );
    expect(all.length).toBe(62);
  });

  it("every tool declares the four annotations as booleans", () => {
    expect(missingAnnotations(all)).toEqual([]);
  });

  it("annotations follow the spec: GET reads, x-irreversible destroys, x-idempotent repeats", () => {
    for (const spec of toolSpecs) {
      const tool = all.find((t) => t.name === spec.name)!;
      expect(tool.annotations, spec.name).toMatchObject({
        readOnlyHint: spec.method === "GET",
        destructiveHint: spec.irreversible,
        idempotentHint: spec.idempotent,
        openWorldHint: true,
      });
    }
    const destructive = all.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(destructive).toHaveLength(18);
    expect(destructive).toContain("delete_database");
    expect(destructive).not.toContain("rename_database");
  });

  it("names are at most 60 characters and no input schema has a top-level anyOf/oneOf", () => {
    for (const t of all) {
      expect(t.name.length).toBeLessThanOrEqual(60);
      expect(t.name).toMatch(/^[a-z0-9_]+$/);
      expect(t.inputSchema.type).toBe("object");
      expect(Object.keys(t.inputSchema)).not.toContain("anyOf");
      expect(Object.keys(t.inputSchema)).not.toContain("oneOf");
      expect(Object.keys(t.inputSchema)).not.toContain("allOf");
    }
  });

  it("read-only by default: lists no write tool", () => {
    expect(readOnly.length).toBe(toolSpecs.filter((t) => t.method === "GET").length + 2);
    expect(readOnly.filter((t) => t.annotations?.readOnlyHint !== true)).toEqual([]);
  });

  it("a write tool called on a read-only server sends nothing and says how to allow it", async () => {
    const result = await clients[1]!.callTool({
      name: "delete_team",
      arguments: { id: "team_1" },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("--allow-writes");
    expect(h.emu.requests()).toEqual([]);
  });

  it("--toolsets serves only those toolsets", async () => {
    const client = await connectOver(transport, h.emu, [
      "--toolsets",
      "teams,audit",
      "--allow-writes",
    ]);
    try {
      const { tools } = await client.listTools();
      const sets = new Set(tools.map((t) => toolSpecs.find((s) => s.name === t.name)?.toolset));
      expect([...sets].sort()).toEqual(["audit", "teams"]);
      expect(tools.length).toBe(
        toolSpecs.filter((t) => t.toolset === "teams" || t.toolset === "audit").length,
      );
    } finally {
      await client.close();
    }
  });
});
