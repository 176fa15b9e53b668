import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createLogsClient, type LogEntry } from "@api-clients/logs-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { entryKey, target } from "../support/emulator.js";

let emu: Emulator;
let cli: ReturnType<typeof target>;
const now = Date.now();
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 3_000, seed: 11, logsEndTime: now });
  cli = target(emu);
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

/** What the client itself returns for the same filters: the CLI must show exactly that. */
async function expected(params: Parameters<ReturnType<typeof createLogsClient>["list"]>[0]) {
  const logs = createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url });
  return (await logs.list(params)).events;
}

const list = (...args: string[]) => runCli(["logs", "list", ...cli.base, ...args], cli.env);

describe("api-clients logs list", () => {
  it("--json prints the page with the filters applied (state any case, topic, relative --from)", async () => {
    const result = await list(
      "--state",
      "failed",
      "--topic-name",
      "orders",
      "--from",
      "2h",
      "--count",
      "50",
      "--json",
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const page = JSON.parse(result.stdout) as { events: LogEntry[]; cursor?: string };
    expect(page.events.length).toBeGreaterThan(0);
    for (const e of page.events) {
      expect(e.state).toBe("FAILED");
      expect(e.topicName).toBe("orders");
      expect(Number(e.time)).toBeGreaterThanOrEqual(now - 2 * 3_600_000 - 60_000);
    }
    const want = await expected({
      state: "FAILED",
      topicName: "orders",
      fromDate: Number(page.events.at(-1)!.time),
      count: 50,
    });
    expect(page.events.map(entryKey)).toEqual(want.slice(0, page.events.length).map(entryKey));
  });

  it("ISO and Unix-ms dates, --order and --message-id reach the API as the client sends them", async () => {
    const all = await expected({ count: 1000, order: "earliestFirst" });
    const from = Number(all[100]!.time);
    const to = Number(all[400]!.time);
    const iso = await list(
      "--from",
      new Date(from).toISOString(),
      "--to",
      String(to),
      "--order",
      "earliestFirst",
      "--count",
      "1000",
      "--json",
    );
    expect(iso.code).toBe(0);
    const got = (JSON.parse(iso.stdout) as { events: LogEntry[] }).events;
    expect(got.map(entryKey)).toEqual(
      all.filter((e) => Number(e.time) >= from && Number(e.time) <= to).map(entryKey),
    );

    const { messageId, entries } = emu.logs.simulateMessage({ outcome: "failed", retries: 2 });
    const life = await list("--message-id", messageId, "--order", "earliestFirst", "--json");
    expect((JSON.parse(life.stdout) as { events: LogEntry[] }).events.map((e) => e.state)).toEqual(
      entries.map((e) => e.state),
    );
  });

  it("a filter the spec lets repeat takes the flag several times (values ORed), a new spec filter included", async () => {
    const result = await list(
      "--topic-name",
      "orders",
      "--topic-name",
      "emails",
      "--count",
      "200",
      "--json",
    );
    expect(result.code).toBe(0);
    const topics = new Set(
      (JSON.parse(result.stdout) as { events: LogEntry[] }).events.map((e) => e.topicName),
    );
    expect([...topics].sort()).toEqual(["emails", "orders"]);

    const a = emu.logs.simulateMessage({ outcome: "delivered" });
    const b = emu.logs.simulateMessage({ outcome: "failed", retries: 1 });
    emu.logs.simulateMessage({ outcome: "delivered" });
    const both = await list("--message-ids", a.messageId, "--message-ids", b.messageId, "--json");
    expect(both.code).toBe(0);
    const ids = (JSON.parse(both.stdout) as { events: LogEntry[] }).events.map((e) => e.messageId);
    expect(new Set(ids)).toEqual(new Set([a.messageId, b.messageId]));
    expect(ids).toHaveLength(a.entries.length + b.entries.length);
  });

  it("prints a table: header, one row per entry with local time, state, id, destination, status and error", async () => {
    const [entry] = emu.logs.append([
      {
        state: "FAILED",
        messageId: "msg_table_row",
        url: "https://api.example.com/hook",
        topicName: "orders",
        responseStatus: 503,
        error: "503 Service Unavailable\nupstream timed out",
      },
    ]);
    const result = await list("--message-id", "msg_table_row");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^TIME\s+STATE\s+MESSAGE ID\s+URL \/ TOPIC\s+STATUS\s+ERROR$/);
    expect(lines).toHaveLength(2);
    const local = new Date(entry!.time);
    const offset = -local.getTimezoneOffset();
    expect(lines[1]).toContain(
      `T${String(local.getHours()).padStart(2, "0")}:${String(local.getMinutes()).padStart(2, "0")}`,
    );
    expect(lines[1]).toMatch(offset === 0 ? /\+00:00/ : /[+-]\d\d:\d\d/);
    expect(lines[1]).toMatch(
      /FAILED\s+msg_table_row\s+orders: https:\/\/api\.example\.com\/hook\s+503\s+503 Service Unavailable upstream timed out/,
    );
    expect(result.stdout).not.toMatch(/\x1b\[/); // not a terminal: no colour
  });

  it("colours states with FORCE_COLOR, never with NO_COLOR (which wins) or --no-color", async () => {
    emu.logs.append([{ state: "FAILED", messageId: "msg_colour" }]);
    const args = ["logs", "list", ...cli.base, "--message-id", "msg_colour"];
    const forced = await runCli(args, { ...cli.env, FORCE_COLOR: "1" });
    expect(forced.stdout).toMatch(/\x1b\[31mFAILED/);
    for (const [env, extra] of [
      [{ NO_COLOR: "1", FORCE_COLOR: "1" }, []],
      [{ FORCE_COLOR: "1" }, ["--no-color"]],
    ] as const) {
      const plain = await runCli([...args, ...extra], { ...cli.env, ...env });
      expect(plain.stdout).toMatch(/FAILED\s+msg_colour/);
      expect(plain.stdout).not.toMatch(/\x1b\[/);
    }
  });

  it("says where the next page starts when there is one", async () => {
    const result = await list("--count", "5");
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(6);
    expect(result.stderr).toMatch(/More entries: add --cursor \d+-\d+/);
  });
});

describe("api-clients logs list: usage errors exit 2", () => {
  it.each([
    ["a flag the command does not have", ["--bogus"], /unknown option '--bogus'/],
    [
      "a filter out of the client's range",
      ["--page-size", "5000"],
      /invalid --page-size \(count\): must be an integer from 1 to 1000/,
    ],
    [
      "the same through the deprecated --count",
      ["--count", "5000"],
      /invalid --page-size \(count\): must be an integer from 1 to 1000/,
    ],
    [
      "a date it cannot read",
      ["--from", "yesterday"],
      /--from: expected an ISO date.*got "yesterday"/,
    ],
    [
      "a non-repeatable filter twice",
      ["--state", "FAILED", "--state", "ERROR"],
      /--state: given 2 times/,
    ],
  ])("%s", async (_name, args, message) => {
    const result = await list(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Usage: api-clients logs list [options]");
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace without --verbose
  });

  it("no token: names QSTASH_TOKEN and --token", async () => {
    const result = await runCli(["logs", "list", ...cli.base]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/set QSTASH_TOKEN or pass --token/);
  });
});

describe("api-clients logs list: API errors exit 1", () => {
  it("a refused connection names the system error and the attempts", async () => {
    const closed = await startEmulator({ port: 0 });
    const url = closed.url;
    await closed.close();
    const result = await runCli(["logs", "list", "--base-url", url, "--max-retries", "1"], cli.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Connection failed/);
    expect(result.stderr).toMatch(/ECONNREFUSED · 2 attempts/);
  });

  it("a wrong token is a 401: status and message, never the token, also not with --verbose", async () => {
    const secret = "wrong_token_that_must_not_leak_42";
    for (const extra of [[], ["--verbose"]]) {
      const result = await runCli(["logs", "list", ...cli.base, ...extra], {
        QSTASH_TOKEN: secret,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/401 Unauthorized/);
      expect(result.stderr).toMatch(/status 401 · 1 attempt\n/);
      expect(result.stdout + result.stderr).not.toContain(secret);
    }
    const flag = await runCli(["logs", "list", ...cli.base, "--token", secret, "--verbose"]);
    expect(flag.code).toBe(1);
    expect(flag.stdout + flag.stderr).not.toContain(secret);
  });

  it("--verbose prints the request, retry and response events as JSON lines; a stack only with it", async () => {
    emu.faults.add({ path: "/v2/logs", status: 503, retryAfter: 0.01, times: 1 });
    const ok = await list("--count", "1", "--verbose");
    expect(ok.code).toBe(0);
    const events = ok.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { type: string; status?: number });
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["request", "response", "retry"]),
    );
    expect(events.find((e) => e.type === "response" && e.status === 200)).toBeDefined();
    expect(ok.stderr).not.toContain(emu.credentials.logsToken);

    emu.faults.add({ path: "/v2/logs", status: 500, times: "always" });
    const failed = await list("--max-retries", "1", "--verbose");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/500 Internal Server Error/);
    expect(failed.stderr).toMatch(/status 500 · 2 attempts/);
    expect(failed.stderr).toMatch(/\n\s+at /);
    const quiet = await list("--max-retries", "0");
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).not.toMatch(/\n\s+at /);
  });
});
