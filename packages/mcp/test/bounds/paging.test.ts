// Results stay under the byte bound, and their cursors page through a whole listing exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connect, textOf, useEmulator } from "../support/server.js";

const TOTAL = 100_000;
const h = useEmulator({ seedLogs: TOTAL });
const key = (e: { time: unknown; messageId: unknown; state: unknown }) =>
  `${String(e.time)}|${String(e.messageId)}|${String(e.state)}`;

type Page = { events?: Record<string, unknown>[]; cursor?: string; summary?: { count: number } };

describe("list_logs over 100,000 entries", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(h.emu);
  });
  afterAll(async () => {
    await client.close();
  });

  it("pages through all of them under 24,000 bytes each: 0 missing, 0 duplicated", async () => {
    const seen = new Set<string>();
    let duplicated = 0;
    let calls = 0;
    let largest = 0;
    let cursor: string | undefined;
    do {
      const result = await client.callTool({
        name: "list_logs",
        arguments: {
          count: 1000,
          fields: ["time", "messageId", "state"],
          ...(cursor === undefined ? {} : { cursor }),
        },
      });
      calls += 1;
      const text = textOf(result);
      largest = Math.max(largest, Buffer.byteLength(text));
      const page = JSON.parse(text) as Page;
      expect(page.summary).toBeUndefined();
      for (const entry of page.events ?? []) {
        const k = key(entry as never);
        if (seen.has(k)) duplicated += 1;
        seen.add(k);
      }
      cursor = page.cursor;
    } while (cursor !== undefined && calls < 5_000);
    expect(duplicated).toBe(0);
    expect(seen.size).toBe(TOTAL);
    expect(largest).toBeLessThanOrEqual(24_000);
    expect(calls).toBeGreaterThan(100_000 / 1000);
  }, 300_000);

  it("whole entries: each page is JSON under the bound with a cursor", async () => {
    let cursor: string | undefined;
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({
        name: "list_logs",
        arguments: { count: 1000, ...(cursor === undefined ? {} : { cursor }) },
      });
      const text = textOf(result);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(24_000);
      const page = JSON.parse(text) as Page;
      expect(page.events!.length).toBeGreaterThan(0);
      expect(page.cursor).toMatch(/^mcp1\./);
      cursor = page.cursor;
    }
  });
});
