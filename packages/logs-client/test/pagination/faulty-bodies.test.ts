// Issue #12 ("done when"): paging 50,000 entries while 10 % of the page bodies are reset mid-stream
// and 5 % stall yields every entry exactly once. The faults are drawn from a seeded generator, so a
// failure is reproducible.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogsClient } from "../../src/index.js";
import {
  makeEntries,
  pagingResponder,
  startTestServer,
  type TestServer,
} from "../support/log-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const TOTAL = 50_000;
const PAGE = 1_000;

describe("paging through faulty bodies", () => {
  it("yields all 50,000 entries exactly once with 10 % of bodies reset and 5 % stalled", async () => {
    const entries = makeEntries(TOTAL);
    const pages = pagingResponder(entries);
    const random = seeded(12);
    const faults = { reset: 0, stalled: 0 };
    server.setHandler((request) => {
      const reply = pages(request);
      const draw = random();
      // Cut or stall somewhere inside the body, after the headers and part of the JSON.
      if (draw < 0.1) {
        faults.reset++;
        return { ...reply, resetAfterBytes: 1_000 + Math.floor(random() * 10_000) };
      }
      if (draw < 0.15) {
        faults.stalled++;
        return { ...reply, stallAfterBytes: 1_000 + Math.floor(random() * 10_000) };
      }
      return reply;
    });
    const logs = createLogsClient({
      token: "t",
      baseUrl: server.url,
      timeoutMs: 1_500,
      maxRetries: 6,
    });

    const seen = new Map<string, number>();
    for await (const entry of logs.iterate({ count: PAGE })) {
      seen.set(entry.messageId, (seen.get(entry.messageId) ?? 0) + 1);
    }

    expect(seen.size).toBe(TOTAL);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect([...seen.keys()]).toEqual(entries.map((entry) => entry.messageId));
    // The faults did happen, and each cost exactly one more request.
    expect(faults.reset).toBeGreaterThanOrEqual(3);
    expect(faults.stalled).toBeGreaterThanOrEqual(1);
    expect(server.requests).toHaveLength(TOTAL / PAGE + faults.reset + faults.stalled);
  }, 120_000);
});
