import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { useEmulator } from "../support/emulator.js";

const f = useEmulator();

const run = (...args: string[]) => runCli([...args, ...f.cli.base], f.cli.env);
const json = (stdout: string): unknown => JSON.parse(stdout);

describe("the rest of the live management API on the command line", () => {
  it("search list, qstash list and audit-log --json print arrays; the audit log records a write made with the CLI", async () => {
    const qstash = await run("qstash", "list", "--json");
    expect(qstash.code, qstash.stderr).toBe(0);
    const users = json(qstash.stdout) as { region: string }[];
    expect(Array.isArray(users)).toBe(true);
    expect(users.map((u) => u.region).sort()).toEqual(["eu-central-1", "us-east-1"]);

    const empty = await run("search", "list", "--json");
    expect(empty.code, empty.stderr).toBe(0);
    expect(json(empty.stdout)).toEqual([]);

    const created = await run(
      "search",
      "create",
      "--name",
      "docs",
      "--region",
      "eu-west-1",
      "--type",
      "payg",
      "--json",
    );
    expect(created.code, created.stderr).toBe(0);
    const index = json(created.stdout) as { id: string };
    const listed = await run("search", "list", "--json");
    expect((json(listed.stdout) as { id: string }[]).map((s) => s.id)).toEqual([index.id]);

    const audit = await run("audit-log", "--json");
    expect(audit.code, audit.stderr).toBe(0);
    const entries = json(audit.stdout) as { entity: string; actor: string }[];
    expect(Array.isArray(entries)).toBe(true);
    expect(entries.some((e) => e.entity === index.id && e.actor === f.emu.credentials.email)).toBe(
      true,
    );
    const table = await run("audit-log");
    expect(table.stdout).toMatch(/^TIME\s+ACTOR\s+ACTION\s+ENTITY/);

    const deleted = await run("search", "delete", index.id, "--yes");
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(json((await run("search", "list", "--json")).stdout)).toEqual([]);
  });

  it("db change-plan and db budget change what the next db get reads", async () => {
    const { database_id: id } = await f.m.databases.create({
      database_name: "plans",
      primary_region: "us-east-1",
    });
    if (id === undefined) throw new Error("the emulator created a database without an id");
    const plan = await run("db", "change-plan", id, "--plan", "fixed_1gb", "--yes");
    expect(plan.code, plan.stderr).toBe(0);
    const budget = await run("db", "budget", id, "--budget", "50");
    expect(budget.code, budget.stderr).toBe(0);
    const after = json((await run("db", "get", id, "--json")).stdout) as {
      budget: number;
    };
    expect(after.budget).toBe(50);
  });

  it("call reaches all 58 management operations and both logs operations", async () => {
    const all = await runCli(["call", "--help"]);
    const ids = [...all.stdout.matchAll(/^ {2}(\w+) \[options\]/gm)].map((m) => m[1]);
    expect(ids).toHaveLength(60);
    for (const id of ["changePlan", "listAuditLogs", "createSearchIndex", "getQStashIPv4"])
      expect(ids).toContain(id);
  });
});
