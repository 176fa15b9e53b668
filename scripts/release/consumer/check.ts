// Type-checked (never run) in a fresh consumer, under `node16` and `bundler` module resolution.
import { startEmulator, type Emulator } from "@api-clients/emulator";
import {
  createLogsClient,
  type LogEntry,
  type LogPage,
  RateLimitError,
} from "@api-clients/logs-client";
import {
  ApiError,
  createManagementClient,
  type Database,
  type ManagementClient,
} from "@api-clients/management-client";
import { instrument } from "@api-clients/otel";
import { createRedisRateLimiter, type RedisRateLimiter } from "@api-clients/rate-limit-redis";

const emulator: Emulator = await startEmulator({ seedLogs: 1 });
const logs = createLogsClient({
  token: emulator.credentials.logsToken,
  baseUrl: emulator.url,
  maxRetries: 1,
});
const page: LogPage = await logs.list({ state: "DELIVERED", fromDate: new Date(0), count: 10 });
const first: LogEntry | undefined = page.events[0];
const cursor: string | undefined = page.cursor;

// @ts-expect-error `count` is a number
await logs.list({ count: "ten" });
// @ts-expect-error unknown filters do not compile
await logs.list({ colour: "red" });

const management: ManagementClient = createManagementClient({
  email: emulator.credentials.email,
  apiKey: emulator.credentials.apiKey,
  baseUrl: emulator.url,
});
const db: Database = await management.databases.create({
  database_name: "typed",
  primary_region: "us-east-1",
});
// The service does not promise every field of a record: an omitted id needs a check.
const id: string | undefined = db.database_id;
if (id === undefined) throw new Error("the created database has no database_id");
const nothing: void = await management.databases.enableEviction(id);
// @ts-expect-error `primary_region` is a string
await management.databases.create({ database_name: "typed", primary_region: 1 });

try {
  await management.databases.get("missing");
} catch (error) {
  if (error instanceof ApiError) console.log(error.status, error.requestId);
  if (error instanceof RateLimitError) console.log(error.retryAfterMs);
}
// The add-ons: a tracer subscription that returns its unsubscribe, a limiter any client takes.
const stop: () => void = instrument({});
const rateLimiter: RedisRateLimiter = createRedisRateLimiter({ url: "redis://127.0.0.1:6379" });
createLogsClient({ token: emulator.credentials.logsToken, baseUrl: emulator.url, rateLimiter });
// @ts-expect-error the limiter's URL is required
createRedisRateLimiter({});
stop();
await rateLimiter.close();
console.log(first?.messageId, cursor, nothing);
await emulator.close();
