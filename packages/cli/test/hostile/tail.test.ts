// `logs tail` against hostile servers (issue 24: 6, 9, 10, 16): a repeated cursor, pages that never
// end, an entry dated in the future, an interval a timer cannot wait.
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startCli } from "../support/cli.js";
import { entry, startHostile, type HostileServer } from "./server.js";

const lines = (text: string) => text.split("\n").filter((l) => l !== "");
const ids = (text: string) =>
  lines(text).map((l) => (JSON.parse(l) as { messageId: string }).messageId);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const env = { QSTASH_TOKEN: "tail-token" };

let server: HostileServer | undefined;
afterEach(() => server?.close());

describe("logs tail against hostile servers", () => {
  it("a server that returns the same cursor forever: tail stops following it, polls at the interval and keeps showing new entries (issue 24, 9)", async () => {
    const live = [entry("m_0")];
    server = await startHostile(() => ({
      body: { events: live.slice(-3).reverse(), cursor: "same-cursor" },
    }));
    const tail = startCli(
      ["logs", "tail", "--base-url", server.url, "--json", "--interval", "0.25"],
      env,
    );
    await tail.waitFor((out) => ids(out).includes("m_0"));
    const before = server.requests;
    const start = Date.now();
    live.push(entry("m_1"));
    await tail.waitFor((out) => ids(out).includes("m_1"));
    await sleep(1_500);
    live.push(entry("m_2"));
    await tail.waitFor((out) => ids(out).includes("m_2"));
    const seconds = (Date.now() - start) / 1000;
    const rate = (server.requests - before) / seconds;
    tail.child.kill("SIGINT");
    const result = await tail.done;
    expect(result.code).toBe(130);
    // Two requests per poll (the top page, then the repeated cursor), four polls a second; before the
    // fix it spun at ~1,000 requests a second.
    expect(rate).toBeLessThan(20);
    expect(result.stderr).toMatch(/returned a cursor it returned before/);
    expect(ids(result.stdout)).toEqual(["m_0", "m_1", "m_2"]);
  });

  it("pages that never end: each poll reads a bounded number of them, prints what is new and waits (issue 24, 6)", async () => {
    let next = 0;
    server = await startHostile((_query, n) => ({
      body: {
        events: Array.from({ length: 100 }, () => entry(`e_${next++}`)),
        cursor: `page-${n}`,
      },
    }));
    const tail = startCli(
      ["logs", "tail", "--base-url", server.url, "--json", "--lines", "0", "--interval", "1"],
      env,
    );
    // Printed as it goes: the first poll after the start prints its 10,000 new entries.
    await tail.waitFor((out) => lines(out).length >= 10_000, 30_000);
    const requestsAtFirstBatch = server.requests;
    await sleep(1_500);
    tail.child.kill("SIGINT");
    const result = await tail.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/read 10000 entries \(100 pages, [\d.]+ MiB new\) in one poll/);
    // The first poll's page, one bounded poll, and at most two more polls in 1.5 s at 1 s intervals.
    expect(requestsAtFirstBatch).toBeLessThanOrEqual(1 + 100);
    expect(server.requests).toBeLessThanOrEqual(1 + 3 * 100);
    const shown = ids(result.stdout);
    expect(new Set(shown).size).toBe(shown.length);
  }, 60_000);

  it("an entry dated in the future does not hide the entries after it (issue 24, 16)", async () => {
    const live = [
      entry("old", Date.now() - 60_000),
      entry("from-the-future", Date.now() + 365 * 86_400_000),
    ];
    server = await startHostile(() => ({
      body: { events: [...live].sort((a, b) => b.time - a.time) },
    }));
    const tail = startCli(
      ["logs", "tail", "--base-url", server.url, "--json", "--interval", "0.2"],
      env,
    );
    await tail.waitFor((out) => ids(out).includes("from-the-future"));
    live.push(entry("now_1"));
    await tail.waitFor((out) => ids(out).includes("now_1"));
    await sleep(300);
    live.push(entry("now_2"));
    await tail.waitFor((out) => ids(out).includes("now_2"));
    tail.child.kill("SIGINT");
    const result = await tail.done;
    expect(ids(result.stdout)).toEqual(["old", "from-the-future", "now_1", "now_2"]);
  });

  it("--interval longer than a timer can wait is refused, not turned into a 1 ms poll (issue 24, 10)", async () => {
    server = await startHostile(() => ({ body: { events: [] } }));
    const result = await runCli(
      ["logs", "tail", "--base-url", server.url, "--interval", "2200000"],
      env,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--interval: at most 2147483 seconds/);
    expect(server.requests).toBe(0);
  });
});
