// Type-check cost probe (part 6): the same log reads through the peer SDK.
import { Client } from "@upstash/qstash";

export async function usePeerLogs(token: string): Promise<number> {
  const client = new Client({ token, baseUrl: "http://127.0.0.1:1" });
  const page = await client.logs({ count: 10, filter: { state: "ERROR" } });
  const older = await client.events({ cursor: page.cursor ?? "" });
  let n = page.logs.length + older.logs.length;
  let cursor: string | undefined;
  do {
    const next = await client.logs(cursor === undefined ? { count: 1000 } : { cursor });
    for (const entry of next.logs) n += entry.messageId.length;
    cursor = next.cursor;
  } while (cursor);
  return n;
}
