import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { useEmulator } from "../support/emulator.js";

const f = useEmulator();

const run = (...args: string[]) => runCli([...args, ...f.cli.base], f.cli.env);

/** A fault armed for the next request of any kind: still armed afterwards means nothing was sent. */
function tripwire(): () => boolean {
  f.emu.faults.add({ status: 500, times: 1 });
  return () => f.emu.faults.size === 1;
}

describe("write commands: --dry-run and --yes", () => {
  it("db create --dry-run prints method, URL, headers (credentials masked) and body, and sends nothing", async () => {
    const untouched = tripwire();
    const result = await run(
      "db",
      "create",
      "--name",
      "x",
      "--primary-region",
      "us-east-1",
      "--dry-run",
    );
    expect(result.code).toBe(0);
    const [requestLine, ...rest] = result.stdout.trimEnd().split("\n");
    expect(requestLine).toBe(`POST ${f.emu.url}/v2/redis/database`);
    expect(rest).toContain("authorization: Basic ***");
    expect(rest).toContain("content-type: application/json");
    expect(JSON.parse(rest.at(-1)!)).toEqual({ database_name: "x", primary_region: "us-east-1" });
    expect(result.stderr).toMatch(/dry run: nothing was sent/);
    expect(result.stdout + result.stderr).not.toContain(f.emu.credentials.apiKey);
    expect(result.stdout + result.stderr).not.toContain(
      Buffer.from(`${f.emu.credentials.email}:${f.emu.credentials.apiKey}`).toString("base64"),
    );
    expect(untouched()).toBe(true);
    f.emu.faults.clear();
    expect(await f.m.databases.list()).toEqual([]);
  });

  it("db delete without --yes and without a terminal exits 2 asking for --yes, and deletes nothing", async () => {
    const db = await f.m.databases.create({ database_name: "keep", primary_region: "us-east-1" });
    const untouched = tripwire();
    const result = await run("db", "delete", db.database_id!);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/pass --yes to confirm/);
    expect(result.stderr).toMatch(/nothing was sent/);
    expect(result.stdout).toBe("");
    expect(untouched()).toBe(true);
    f.emu.faults.clear();
    expect((await f.m.databases.list()).map((d) => d.database_id!)).toEqual([db.database_id!]);

    const deleted = await run("db", "delete", db.database_id!, "--yes");
    expect(deleted).toMatchObject({ code: 0, stdout: "OK\n" });
    expect(await f.m.databases.list()).toEqual([]);
  });

  it("db create, rename and reset-password from flags; a refused value names its flag", async () => {
    const created = await run(
      "db",
      "create",
      "--name",
      "orders",
      "--primary-region",
      "eu-west-1",
      "--read-regions",
      "us-east-1",
      "--read-regions",
      "us-west-1",
      "--tls",
      "--json",
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const db = JSON.parse(created.stdout) as { database_id: string; password: string };
    const stored = await f.m.databases.get(db.database_id!);
    expect(stored).toMatchObject({
      database_name: "orders",
      primary_region: "eu-west-1",
      read_regions: ["us-east-1", "us-west-1"],
      tls: true,
    });

    expect((await run("db", "rename", db.database_id!, "--name", "orders-eu")).code).toBe(0);
    expect((await f.m.databases.get(db.database_id!)).database_name).toBe("orders-eu");
    const reset = await run("db", "reset-password", db.database_id!, "--json", "--yes");
    expect(reset.code).toBe(0);
    expect((JSON.parse(reset.stdout) as { password: string }).password).not.toBe(db.password);

    const refused = await run("db", "create", "--name", "x", "--budget", "1.5");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/invalid --budget \(body\.budget\): must be an integer/);
  });

  it("teams create, add-member, members, remove-member and delete", async () => {
    const created = await run("teams", "create", "--name", "Ops", "--no-copy-cc", "--json");
    expect(created.code).toBe(0);
    const team = JSON.parse(created.stdout) as { team_id: string };
    const added = await run(
      "teams",
      "add-member",
      team.team_id!,
      "--member",
      "ana@example.com",
      "--role",
      "dev",
    );
    expect(added.code).toBe(0);
    expect((await f.m.teams.listMembers(team.team_id!)).map((x) => x.member_email!)).toContain(
      "ana@example.com",
    );
    const notConfirmed = await run(
      "teams",
      "remove-member",
      team.team_id!,
      "--member",
      "ana@example.com",
    );
    expect(notConfirmed.code).toBe(2);
    const removed = await run(
      "teams",
      "remove-member",
      team.team_id!,
      "--member",
      "ana@example.com",
      "--yes",
    );
    expect(removed.code).toBe(0);
    expect((await f.m.teams.listMembers(team.team_id!)).map((x) => x.member_email!)).not.toContain(
      "ana@example.com",
    );
    expect((await run("teams", "delete", team.team_id!, "-y")).code).toBe(0);
    expect(await f.m.teams.list()).toEqual([]);
  });

  it("backups create, list, restore and delete; vector create and delete", async () => {
    const db = await f.m.databases.create({ database_name: "cache", primary_region: "us-east-1" });
    expect((await run("backups", "create", db.database_id!, "--name", "nightly")).code).toBe(0);
    const listed = await run("backups", "list", db.database_id!, "--json");
    const [backup] = JSON.parse(listed.stdout) as { backup_id: string; name: string }[];
    expect(backup).toMatchObject({ name: "nightly" });
    const table = await run("backups", "list", db.database_id!);
    expect(table.stdout).toMatch(/^BACKUP ID\s+NAME\s+STATE/);
    expect(table.stdout).toContain(backup!.backup_id);
    const restored = await run(
      "backups",
      "restore",
      db.database_id!,
      "--backup-id",
      backup!.backup_id,
      "--yes",
    );
    expect(restored).toMatchObject({ code: 0, stdout: "OK\n" });
    const deleted = await run("backups", "delete", db.database_id!, backup!.backup_id, "--yes");
    expect(deleted.code).toBe(0);
    expect(await f.m.backups.list(db.database_id!)).toEqual([]);

    const index = await run(
      "vector",
      "create",
      "--name",
      "docs",
      "--region",
      "us-east-1",
      "--similarity-function",
      "COSINE",
      "--dimension-count",
      "384",
      "--json",
    );
    expect(index.code).toBe(0);
    const { id } = JSON.parse(index.stdout) as { id: string };
    expect((await f.m.vector.get(id)).dimension_count).toBe(384);
    expect((await run("vector", "delete", id, "--yes")).code).toBe(0);
    expect(await f.m.vector.list()).toEqual([]);
  });
});

describe("help from the spec", () => {
  it("shows each input's description and its values, open sets marked open", async () => {
    const create = await runCli(["db", "create", "--help"]);
    expect(create.code).toBe(0);
    const text = create.stdout.replace(/\s+/g, " ");
    expect(text).toContain("--primary-region <value> Primary region of a global database.");
    expect(text).toMatch(/us-east-1, us-east-2, .*asia-northeast1, or any other string/);
    expect(text).toContain("Sends POST /v2/redis/database (createDatabase).");
    // The deprecated spelling is accepted through --body but has no flag of its own.
    expect(create.stdout).not.toMatch(/--region\b/);

    const member = (await runCli(["teams", "add-member", "--help"])).stdout.replace(/\s+/g, " ");
    expect(member).toMatch(/--role <value> .*\(one of: admin, dev, finance\) \[required\]/);

    const logs = (await runCli(["logs", "list", "--help"])).stdout.replace(/\s+/g, " ");
    expect(logs).toMatch(/--state <value> Only entries in this state/);
    expect(logs).toMatch(/CREATED, ACTIVE, RETRY, ERROR, IN_PROGRESS, DELIVERED, FAILED/);
  });
});
