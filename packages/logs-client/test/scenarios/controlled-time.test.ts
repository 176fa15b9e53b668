// The rate-limit scenarios on controlled time: the logs client built with `fetch: emulator.fetch`,
// vitest's fake timers driving both the client's waits and the emulator's clock, so the waits are
// asserted exactly. A burst window used up is waited out (until its reset, plus the 20 ms margin) and
// the listing retried; a daily quota used up fails at once with its reset, never waited for.
import { createEmulator, type InProcessEmulator } from "@api-clients/emulator";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createLogsClient, RateLimitError } from "../../src/index.js";

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0, 400); // 400 ms into a second
let emu: InProcessEmulator;
const retries: number[] = [];
beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  retries.length = 0;
  emu = createEmulator({
    seedLogs: 20,
    burstLimit: 50,
    dailyQuota: 1_000,
    clock: () => Date.now(),
  });
});
afterEach(() => vi.useRealTimers());

const client = () =>
  createLogsClient({
    token: emu.credentials.logsToken,
    baseUrl: "https://emulator.test",
    fetch: emu.fetch,
    logger: (e) => void (e.type === "retry" && retries.push(e.delayMs)),
  });
const sentAt = () => emu.requests().map((r) => r.time - T0);

it("burst-limit-exhausted: waits exactly until the window's reset (600 ms) plus 20 ms, then the page", async () => {
  emu.scenario("burst-limit-exhausted");
  let settled = false;
  const page = client()
    .list({ count: 5 })
    .finally(() => void (settled = true));
  await vi.advanceTimersByTimeAsync(619);
  expect(settled).toBe(false);
  expect(retries).toEqual([620]);
  expect(sentAt()).toEqual([0]);
  await vi.advanceTimersByTimeAsync(1);
  expect((await page).events).toHaveLength(5);
  expect(sentAt()).toEqual([0, 620]);
  expect(emu.rateLimits).toEqual({ accepted: 1, refused: 1 });
});

it("daily-quota-exhausted: a RateLimitError at once, resetAt the next UTC midnight, no wait, no retry", async () => {
  emu.scenario("daily-quota-exhausted", { times: "always" });
  const error = await client()
    .list({ count: 5 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RateLimitError);
  expect((error as RateLimitError).scope).toBe("daily");
  expect((error as RateLimitError).resetAt).toEqual(new Date(Date.UTC(2026, 10, 28)));
  expect(Date.now()).toBe(T0);
  expect(retries).toEqual([]);
  expect(sentAt()).toEqual([0]);
});
