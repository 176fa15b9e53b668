import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { useEmulator } from "../support/emulator.js";

const f = useEmulator();

const run = (...args: string[]) => runCli([...args, ...f.cli.base], f.cli.env);
const table = (stdout: string) => stdout.trimEnd().split("\n");

describe("api-clients db", () => {
  it("db list: a table with a row per database, and --json with the records as the API returned them", async () => {
    const a = await f.m.databases.create({
      name: "cache",
      primary_region: "eu-west-1",
      read_regions: ["us-east-1"],
      tls: true,
    });
    const b = await f.m.databases.create({ name: "sessions", primary_region: "us-east-1" });

    const shown = await run("db", "list");
    expect(shown.code).toBe(0);
    const [header, ...rows] = table(shown.stdout);
    expect(header).toMatch(
      /^ID\s+NAME\s+TYPE\s+REGION\s+READ REGIONS\s+STATE\s+TLS\s+ENDPOINT\s+CREATED$/,
    );
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.startsWith(a.database_id!))).toMatch(
      /cache\s+\S+\s+eu-west-1\s+us-east-1\s+active\s+true\s+\S+\.upstash\.io/,
    );
    expect(rows.find((r) => r.startsWith(b.database_id!))).toMatch(/sessions/);

    const json = await run("db", "list", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await f.m.databases.list());
  });

  it("db list with no databases says so on stderr and prints nothing", async () => {
    const result = await run("db", "list");
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/No databases/);
  });

  it("db get masks credentials in the table unless --show-secrets; db stats summarises the series", async () => {
    const db = await f.m.databases.create({ name: "cache", primary_region: "eu-west-1" });
    const masked = await run("db", "get", db.database_id!);
    expect(masked.code).toBe(0);
    expect(masked.stdout).toMatch(/^database_name\s+cache$/m);
    expect(masked.stdout).toMatch(/^password\s+\*\*\* \(--show-secrets to show\)$/m);
    expect(masked.stdout).not.toContain(db.password!);
    const shown = await run("db", "get", db.database_id!, "--show-secrets");
    expect(shown.stdout).toContain(db.password!);
    const json = await run("db", "get", db.database_id!, "--json", "--credentials", "hide");
    expect(JSON.parse(json.stdout).password).toBe("***");

    const stats = await run("db", "stats", db.database_id!);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/^throughput\s+\d+ points, last [\d.]+ at /m);
  });

  it("a missing database is a 404: exit 1 with status and message", async () => {
    const result = await run("db", "get", "no-such-db");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/404 Not Found/);
    expect(result.stderr).toMatch(/status 404/);
  });

  it("a wrong API key is a 401: exit 1, and the key is not in the output", async () => {
    const secret = "definitely-not-the-key-9f8e7d";
    const result = await runCli(["db", "list", ...f.cli.base, "--verbose"], {
      ...f.cli.env,
      UPSTASH_API_KEY: secret,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/401/);
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(result.stdout + result.stderr).not.toContain(
      Buffer.from(`${f.emu.credentials.email}:${secret}`).toString("base64"),
    );
  });

  it("missing management credentials are a usage error naming the variables", async () => {
    const result = await runCli(["db", "list", ...f.cli.base], {
      UPSTASH_EMAIL: "dev@example.com",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/set UPSTASH_API_KEY or pass --api-key/);
  });
});

describe("api-clients teams and vector", () => {
  it("teams list, teams members, vector list and vector get", async () => {
    const team = await f.m.teams.create({ team_name: "Ops", copy_cc: false });
    await f.m.teams.addMember({
      team_id: team.team_id!,
      member_email: "ana@example.com",
      member_role: "dev",
    });
    const index = await f.m.vector.create({
      name: "docs",
      region: "us-east-1",
      similarity_function: "COSINE",
      dimension_count: 384,
    });

    const teams = await run("teams", "list");
    expect(table(teams.stdout)[1]).toMatch(
      new RegExp(`^${team.team_id!}\\s+Ops\\s+owner\\s+false$`),
    );
    const members = await run("teams", "members", team.team_id!);
    expect(members.code).toBe(0);
    expect(
      table(members.stdout)
        .slice(1)
        .map((r) => r.split(/\s+/).slice(0, 2)),
    ).toEqual(expect.arrayContaining([["ana@example.com", "dev"]]));
    const vectors = await run("vector", "list");
    expect(table(vectors.stdout)[1]).toMatch(
      new RegExp(`^${index.id!}\\s+docs\\s+us-east-1\\s+\\S+\\s+COSINE\\s+384`),
    );
    // The index's throughput series ends at the current minute: the CLI read what the client reads
    // just before or just after it (a minute may turn in between).
    const before = await f.m.vector.get(index.id!);
    const one = await run("vector", "get", index.id!, "--json");
    const after = await f.m.vector.get(index.id!);
    expect([before, after]).toContainEqual(JSON.parse(one.stdout));
    const masked = await run("vector", "get", index.id!);
    expect(masked.stdout).not.toContain(index.token!);
  });
});
