import { nextBurstWindow, startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogsClient, RateLimitError, type LogEvent } from "../../src/index.js";

// The logs client against the emulator's burst limit and daily quota (the service's headers).
let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 200, seed: 3, burstLimit: 5 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe("the in-process gate against the emulator's burst limit", () => {
  it("40 sequential list() calls at burstLimit 5: no 429, within 10 % of 40 ÷ 5 s", async () => {
    const events: LogEvent[] = [];
    const logs = createLogsClient({
      token: emu.credentials.logsToken,
      baseUrl: emu.url,
      logger: (e) => events.push(e),
    });
    const started = performance.now();
    for (let i = 0; i < 40; i++) await logs.list({ count: 10 });
    const elapsed = performance.now() - started;
    expect(emu.rateLimits).toEqual({ accepted: 40, refused: 0 });
    expect(events.filter((e) => e.type === "response" && e.status === 429)).toHaveLength(0);
    expect(events.some((e) => e.type === "rate-limit")).toBe(true);
    expect(elapsed).toBeLessThanOrEqual(8_800);
  });

  it("iterate() with prefetch pages through the same gate without a 429", async () => {
    const logs = createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url });
    // Early in a second: a page prefetched in a second's last moments is counted by the emulator in
    // the next one, where the gate does not count it. After that, only the gate's waits cross a second.
    await nextBurstWindow();
    let count = 0;
    for await (const _ of logs.iterate({ count: 20 })) count++;
    expect(count).toBe(200);
    expect(emu.rateLimits.refused).toBe(0);
  });
});

describe("the emulator's daily quota", () => {
  let daily: Emulator;
  beforeAll(async () => {
    daily = await startEmulator({ port: 0, seedLogs: 10, dailyQuota: 2 });
  });
  afterAll(() => daily.close());

  it("past the quota: one attempt, a RateLimitError with scope daily and the UTC midnight reset", async () => {
    const logs = createLogsClient({ token: daily.credentials.logsToken, baseUrl: daily.url });
    // The gate learns the quota is used up from the second answer, so the third call is not sent;
    // a client that has not seen it (a new one) gets the 429 and does not retry.
    await logs.list();
    await logs.list();
    const fresh = createLogsClient({ token: daily.credentials.logsToken, baseUrl: daily.url });
    const error = await fresh.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.scope).toBe("daily");
    expect(limited.attempts).toBe(1);
    const midnight = Math.ceil((Date.now() + 1) / 86_400_000) * 86_400_000;
    expect(limited.resetAt?.getTime()).toBe(midnight);
    expect(daily.rateLimits).toEqual({ accepted: 2, refused: 1 });
  });
});
