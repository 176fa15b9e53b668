// The logs client's documented reaction to each of the emulator's named scenarios (README, "Errors,
// retries and timeouts"): 429 and 5xx are retried, waiting Retry-After when given; a daily quota
// used up fails at once with its reset; connection failures and cut bodies are retried; an attempt
// over timeoutMs is a TimeoutError; a refused cursor is a BadRequestError; a page under `logs` reads
// as under `events`.
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import {
  BadRequestError,
  ConnectionError,
  createLogsClient,
  RateLimitError,
  TimeoutError,
  type LogsClientOptions,
} from "../../src/index.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ seedLogs: 40, burstLimit: 50, dailyQuota: 1_000 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const events: { type: string; delayMs?: number; reason?: string }[] = [];
beforeEach(() => void (events.length = 0));
const client = (options: Partial<LogsClientOptions> = {}) =>
  createLogsClient({
    token: emu.credentials.logsToken,
    baseUrl: emu.url,
    logger: (e) => void events.push(e as (typeof events)[number]),
    ...options,
  });
const retries = () => events.filter((e) => e.type === "retry");

it("burst-limit-exhausted: a RateLimitError of the burst window, or a retry that then succeeds", async () => {
  emu.scenario("burst-limit-exhausted");
  const error = await client({ maxRetries: 0 })
    .list({ count: 5 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RateLimitError);
  expect((error as RateLimitError).scope).toBe("burst");
  expect((error as RateLimitError).remaining).toBe(0);

  emu.scenario("burst-limit-exhausted");
  const page = await client().list({ count: 5 });
  expect(page.events).toHaveLength(5);
  expect(retries()).toHaveLength(1);
  expect(emu.rateLimits.refused).toBe(2);
});

it("daily-quota-exhausted: fails at once with scope daily and the reset at the next UTC midnight", async () => {
  emu.scenario("daily-quota-exhausted");
  const error = (await client()
    .list({ count: 5 })
    .catch((e: unknown) => e)) as RateLimitError;
  expect(error).toBeInstanceOf(RateLimitError);
  expect(error.scope).toBe("daily");
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  expect(error.resetAt?.getTime()).toBe(midnight.getTime());
  expect(retries()).toHaveLength(0);
  expect(emu.requests()).toHaveLength(1);
});

it("server-errors: retried after exactly the Retry-After the 503 gives, then the page", async () => {
  emu.scenario("server-errors", { times: 2, retryAfter: 0.05 });
  const page = await client().list({ count: 5 });
  expect(page.events).toHaveLength(5);
  expect(retries().map((e) => [e.reason, e.delayMs])).toEqual([
    ["status 503", 50],
    ["status 503", 50],
  ]);
});

it("slow-body: an attempt over timeoutMs is a TimeoutError; within it, the page", async () => {
  emu.scenario("slow-body", { delayMs: 100 });
  await expect(client({ maxRetries: 0, timeoutMs: 150 }).list({ count: 5 })).rejects.toBeInstanceOf(
    TimeoutError,
  );
  emu.scenario("slow-body", { delayMs: 5 });
  expect((await client().list({ count: 5 })).events).toHaveLength(5);
});

it.each(["truncated-body", "connection-reset"] as const)(
  "%s: a ConnectionError without retries; with them, the next attempt's page",
  async (name) => {
    emu.scenario(name);
    await expect(client({ maxRetries: 0 }).list({ count: 5 })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    emu.scenario(name);
    expect((await client().list({ count: 5 })).events).toHaveLength(5);
    expect(retries()).toHaveLength(1);
  },
);

it("expired-cursor: the next page is a BadRequestError naming the cursor (not retried)", async () => {
  const pages = client().pages({ count: 10 });
  const first = await pages.next();
  expect(first.done).toBe(false);
  emu.scenario("expired-cursor");
  const error = await pages.next().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BadRequestError);
  expect((error as BadRequestError).message).toMatch(/cursor: expired/);
  expect(retries()).toHaveLength(0);
});

it("logs-field: a page under `logs` reads as under `events`, and paging still ends", async () => {
  emu.scenario("logs-field");
  const page = await client().list({ count: 5 });
  expect(page.events).toHaveLength(5);
  let n = 0;
  for await (const _ of client().iterate({ count: 15 })) n++;
  expect(n).toBe(40);
});
