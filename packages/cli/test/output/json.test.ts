// `--json <fields>` and `--jq <expr>` against the emulator, through the built binary.
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { useEmulator } from "../support/emulator.js";

const env = useEmulator({ seedLogs: 120, seed: 5 });

async function page(count: number) {
  const response = await fetch(`${env.emu.url}/v2/logs?count=${count}`, {
    headers: { authorization: `Bearer ${env.emu.credentials.logsToken}` },
  });
  return ((await response.json()) as { events: Record<string, unknown>[] }).events;
}

describe("--json <fields> and --jq", () => {
  it("--json messageId,state --jq prints the ids of the failed entries, one per line, raw", async () => {
    env.emu.logs.append([
      { messageId: "msg_failed_one", state: "ERROR", error: "boom" },
      { messageId: "msg_fine", state: "DELIVERED", responseStatus: 200 },
      { messageId: "msg_failed_two", state: "ERROR", error: "boom" },
    ]);
    const events = await page(50);
    const failed = events.filter((e) => e["state"] === "ERROR").map((e) => e["messageId"]);
    expect(failed).toEqual(expect.arrayContaining(["msg_failed_one", "msg_failed_two"]));
    const result = await runCli(
      [
        "logs",
        "list",
        "--page-size",
        "50",
        "--json",
        "messageId,state",
        "--jq",
        '.[] | select(.state=="ERROR") | .messageId',
        ...env.cli.base,
      ],
      env.cli.env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(failed.map((id) => `${id}\n`).join(""));
  });

  it("a field list keeps only those fields of each entry (absent ones null); plain --json everything", async () => {
    const events = await page(5);
    const picked = await runCli(
      ["logs", "list", "--page-size", "5", "--json", "messageId,state,nope", ...env.cli.base],
      env.cli.env,
    );
    expect(picked.code, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual(
      events.map((e) => ({ messageId: e["messageId"], state: e["state"], nope: null })),
    );
    const whole = await runCli(
      ["logs", "list", "--page-size", "5", "--json", ...env.cli.base],
      env.cli.env,
    );
    expect((JSON.parse(whole.stdout) as { events: unknown[] }).events).toEqual(events);
  });

  it("db list --json database_id --jq 'length' and call --jq", async () => {
    await env.m.databases.create({ database_name: "a", primary_region: "eu-west-1" });
    await env.m.databases.create({ database_name: "b", primary_region: "eu-west-1" });
    const ids = (await env.m.databases.list()).map((d) => d.database_id);
    const listed = await runCli(
      ["db", "list", "--json", "database_id", "--jq", ".[].database_id", ...env.cli.base],
      env.cli.env,
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split("\n").sort()).toEqual([...ids].sort());
    const called = await runCli(
      ["call", "listDatabases", "--jq", "length", ...env.cli.base],
      env.cli.env,
    );
    expect(called.stdout).toBe("2\n");
  });

  it("a jq error is a usage error (exit 2) with jq's message; --jq where no JSON is printed too", async () => {
    const bad = await runCli(["logs", "list", "--jq", ".[ | oops", ...env.cli.base], env.cli.env);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("--jq: jq: error: syntax error");
    const runtime = await runCli(
      ["logs", "list", "--jq", ".events | .foo", ...env.cli.base],
      env.cli.env,
    );
    expect(runtime.code).toBe(2);
    expect(runtime.stderr).toMatch(/--jq: jq: error.*Cannot index array with string "foo"/);
    const none = await runCli(["logs", "export", "--jq", ".", ...env.cli.base], env.cli.env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--jq: export prints no JSON");
    // logs tail prints NDJSON as entries arrive: --jq is refused, not ignored.
    const tail = await runCli(
      ["logs", "tail", "--limit", "1", "--jq", ".", ...env.cli.base],
      env.cli.env,
    );
    expect(tail.code).toBe(2);
    expect(tail.stdout).toBe("");
    expect(tail.stderr).toContain("--jq: not supported by tail");
  });

  it("strings jq prints raw are still made safe: no control character reaches the terminal", async () => {
    env.emu.logs.append([{ messageId: "msg_esc", state: "ERROR", error: "a\u001b]52;c;x\u0007b" }]);
    const result = await runCli(
      [
        "logs",
        "list",
        "--jq",
        '.events[] | select(.messageId=="msg_esc") | .error',
        ...env.cli.base,
      ],
      env.cli.env,
    );
    expect(result.stdout).toBe("a\\x1b]52;c;x\\x07b\n");
  });
});
