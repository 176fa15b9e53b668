// The task tools answer what the logs say, read through the logs client independently.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogsClient, type LogEntry } from "@api-clients/logs-client";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connect, textOf, useEmulator } from "../support/server.js";

const h = useEmulator({ seedLogs: 3_000 });

async function everyEntry(params: object): Promise<LogEntry[]> {
  const logs = createLogsClient({ token: h.emu.credentials.logsToken, baseUrl: h.emu.url });
  const out: LogEntry[] = [];
  for await (const e of logs.iterate(params as never)) out.push(e);
  return out;
}

describe("task tools", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(h.emu);
  });
  afterAll(() => client.close());

  it("are listed with the read tools, with the four annotations", async () => {
    const { tools } = await client.listTools();
    for (const name of ["message_history", "failures_by_url"]) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
    }
  });

  it("message_history: every state of the message, oldest first", async () => {
    const all = await everyEntry({});
    // The message with the most entries.
    const counts = new Map<string, number>();
    for (const e of all) counts.set(e.messageId, (counts.get(e.messageId) ?? 0) + 1);
    const [messageId, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(n).toBeGreaterThan(1);
    const want = all.filter((e) => e.messageId === messageId).reverse();
    const result = JSON.parse(
      textOf(await client.callTool({ name: "message_history", arguments: { messageId } })),
    ) as { entries: { state: string; time: unknown }[]; incomplete?: boolean };
    expect(result.incomplete).toBeUndefined();
    expect(result.entries.map((e) => e.state)).toEqual(want.map((e) => e.state));
  });

  it("failures_by_url: FAILED entries of the window counted by URL", async () => {
    const all = await everyEntry({});
    const times = all.map((e) => Number(e.time));
    const fromDate = Math.min(...times);
    const toDate = Math.max(...times);
    const failed = await everyEntry({ state: "FAILED", fromDate, toDate });
    expect(failed.length).toBeGreaterThan(0);
    const want = new Map<string, number>();
    for (const e of failed) want.set(e.url ?? "(none)", (want.get(e.url ?? "(none)") ?? 0) + 1);
    const result = JSON.parse(
      textOf(await client.callTool({ name: "failures_by_url", arguments: { fromDate, toDate } })),
    ) as { failures: number; urls: { url: string; failures: number }[] };
    expect(result.failures).toBe(failed.length);
    expect(Object.fromEntries(result.urls.map((u) => [u.url, u.failures]))).toEqual(
      Object.fromEntries(want),
    );
  });
});
