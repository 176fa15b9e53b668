// A consumer of the packed packages, compiled by scripts/test/typescript-setups.test.ts under every
// TypeScript setup a service may have (strict, skipLibCheck false). ES import syntax: a CommonJS
// setup compiles it to require(). The `@ts-expect-error` lines fail the build if a type turns into
// `any` (an unused directive is an error), so a setup that loses the types cannot pass.
import type { ClientOptions } from "@api-clients/core";
import { ApiClientError as CoreApiClientError } from "@api-clients/core/errors";
import * as internal from "@api-clients/core/internal";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import {
  ApiClientError,
  createLogsClient,
  DEFAULT_DEADLINE_MS,
  RateLimitError,
  type LogEntry,
  type LogPage,
  type RetryLogEvent,
} from "@api-clients/logs-client";
import {
  createManagementClient,
  InternalServerError,
  NotFoundError,
  type Database,
} from "@api-clients/management-client";

const options: ClientOptions = { maxRetries: 0, timeoutMs: 5_000, deadlineMs: DEFAULT_DEADLINE_MS };
// @ts-expect-error `maxRetries` is a number
const wrongOptions: ClientOptions = { maxRetries: "none" };
// The clients re-export all of core, types too.
// @ts-expect-error `delayMs` is a number
const wrongRetry: RetryLogEvent["delayMs"] = "soon";

/** Types only: never called. */
export async function typed(emulator: Emulator): Promise<Database> {
  console.log(wrongOptions, wrongRetry);
  const logs = createLogsClient({ token: "t", baseUrl: emulator.url, ...options });
  const page: LogPage = await logs.list({ state: "DELIVERED", count: 10 });
  const first: LogEntry | undefined = page.events[0];
  // @ts-expect-error `count` is a number
  await logs.list({ count: "ten" });
  const management = createManagementClient({ email: "e", apiKey: "k", baseUrl: emulator.url });
  // @ts-expect-error `primary_region` is a string
  await management.databases.create({ database_name: "typed", primary_region: 42 });
  try {
    return await management.databases.create({
      database_name: first?.messageId ?? "db",
      primary_region: "us-east-1",
    });
  } catch (error) {
    if (error instanceof RateLimitError) {
      const wait: number | undefined = error.retryAfterMs;
      // @ts-expect-error `retryAfterMs` is not a string
      const text: string = error.retryAfterMs;
      console.log(wait, text);
    }
    if (error instanceof NotFoundError) {
      const status: number = error.status;
      console.log(status);
    }
    throw error;
  }
}

/** Run after compiling (CommonJS setups: require() of the ES modules, Node >= 20.19). */
export async function smoke(): Promise<string> {
  const classes =
    RateLimitError.prototype instanceof ApiClientError &&
    InternalServerError.prototype instanceof ApiClientError &&
    ApiClientError === CoreApiClientError;
  const emulator = await startEmulator({ seedLogs: 3 });
  try {
    const logs = createLogsClient({ token: emulator.credentials.logsToken, baseUrl: emulator.url });
    const page = await logs.list({ count: 10 });
    return `smoke: ${page.events.length} entries, classes ${classes}, internal ${typeof internal}`;
  } finally {
    await emulator.close();
  }
}

if (process.argv.includes("--run")) {
  smoke().then(
    (line) => console.log(line),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
