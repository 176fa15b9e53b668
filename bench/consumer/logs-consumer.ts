// Type-check cost probe (part 6): a consumer that calls every method of the logs client.
import { createLogsClient, type LogEntry, type LogPage } from "@api-clients/logs-client";

export async function useLogs(token: string): Promise<number> {
  const logs = createLogsClient({ token, baseUrl: "http://127.0.0.1:1", maxRetries: 1 });
  const page: LogPage = await logs.list({ state: "failed", count: 10, order: "latestFirst" });
  const older: LogPage = await logs.listEvents({ fromDate: new Date(0), toDate: Date.now() });
  let n = page.events.length + older.events.length;
  for await (const p of logs.pages({ topicName: "t" }, { prefetch: false })) n += p.events.length;
  for await (const entry of logs.iterate({ queueName: "q" })) {
    const e: LogEntry = entry;
    n += e.messageId.length;
  }
  const { data } = await logs.raw.GET("/v2/logs", { params: { query: { count: 1 } } });
  return n + (data?.cursor?.length ?? 0);
}
