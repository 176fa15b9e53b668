import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createManagementClient, type ManagementClient } from "@api-clients/management-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { target } from "../support/emulator.js";

let emu: Emulator;
let cli: ReturnType<typeof target>;
let m: ManagementClient;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 50, seed: 2 });
  cli = target(emu);
  m = createManagementClient({
    email: emu.credentials.email,
    apiKey: emu.credentials.apiKey,
    baseUrl: emu.url,
  });
  dir = mkdtempSync(join(tmpdir(), "api-clients-call-"));
});
beforeEach(() => emu.reset());
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (...args: string[]) => runCli(["call", ...args, ...cli.base], cli.env);

describe("api-clients call <operationId>", () => {
  it("createDatabase with --body JSON, renameDatabase with --body @file, getDatabase with path and query params", async () => {
    const created = await call(
      "createDatabase",
      "--body",
      JSON.stringify({ name: "orders", primary_region: "eu-west-1", read_regions: ["us-east-1"] }),
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const db = JSON.parse(created.stdout) as { database_id: string; database_name: string };
    expect(db.database_name!).toBe("orders");
    expect((await m.databases.list()).map((d) => d.database_id!)).toEqual([db.database_id!]);

    const file = join(dir, "rename.json");
    writeFileSync(file, JSON.stringify({ name: "orders-eu" }));
    const renamed = await call(
      "renameDatabase",
      "--param",
      `id=${db.database_id!}`,
      "--body",
      `@${file}`,
    );
    expect(renamed.code).toBe(0);
    expect((await m.databases.get(db.database_id!)).database_name).toBe("orders-eu");

    const got = await call("getDatabase", "-p", `id=${db.database_id!}`, "-p", "credentials=hide");
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ database_name: "orders-eu", password: "***" });
  });

  it("listLogs through the logs API with a query parameter, and deleteDatabase's acknowledgement", async () => {
    const logs = await call("listLogs", "--param", "count=7");
    expect(logs.code).toBe(0);
    expect((JSON.parse(logs.stdout) as { events: unknown[] }).events).toHaveLength(7);

    const db = await m.databases.create({ name: "tmp", primary_region: "us-east-1" });
    const deleted = await call("deleteDatabase", "--param", `id=${db.database_id!}`, "--yes");
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toBe("OK");
    expect(await m.databases.list()).toEqual([]);
  });

  it("--help lists the operations; <operationId> --help lists its parameters and body from the operation table", async () => {
    const all = await runCli(["call", "--help"]);
    expect(all.code).toBe(0);
    for (const id of ["listLogs", "createDatabase", "listTeamMembers", "transferVectorIndex"])
      expect(all.stdout).toMatch(
        new RegExp(`^  ${id} \\[options\\]\\s+(GET|POST|DELETE|PATCH) /v2/`, "m"),
      );
    const one = await runCli(["call", "getDatabase", "--help"]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/GET \/v2\/redis\/database\/\{id\}/);
    expect(one.stdout).toMatch(/^  id\s+path, required, string/m);
    expect(one.stdout).toMatch(/^  credentials\s+query, optional, hide, or any other string/m);
    const body = await runCli(["call", "addTeamMember", "--help"]);
    expect(body.stdout).toMatch(/^  member_role\s+required, one of: .*admin.*dev/m);
  });

  it("usage errors exit 2: unknown operation, unknown or missing parameter, bad JSON, a body where none is taken", async () => {
    const cases: [string[], RegExp][] = [
      [["noSuchOperation"], /unknown command 'noSuchOperation'/],
      [["getDatabase"], /--param id: required by getDatabase/],
      [
        ["getDatabase", "--param", "id=x", "--param", "colour=red"],
        /getDatabase has no parameter "colour" \(it has: id, credentials\)/,
      ],
      [["createTeam", "--body", "{not json"], /--body: not valid JSON/],
      [["listTeams", "--body", "{}"], /--body: listTeams takes no request body/],
      [["createTeam"], /--body: createTeam requires a JSON body/],
    ];
    for (const [args, message] of cases) {
      const result = await call(...args);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });

  it("--dry-run prints the request as the client sends it (state upper-cased by the logs rule), token masked, nothing sent", async () => {
    emu.faults.add({ status: 500, times: 1 });
    const result = await call("listLogs", "-p", "count=3", "-p", "state=failed", "--dry-run");
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`GET ${emu.url}/v2/logs?count=3&state=FAILED`);
    expect(lines).toContain("authorization: Bearer ***");
    expect(result.stdout + result.stderr).not.toContain(emu.credentials.logsToken);
    expect(emu.faults.size).toBe(1);
    emu.faults.clear();
  });

  it("an API error exits 1 with status and message", async () => {
    const result = await call("getVectorIndex", "--param", "id=missing");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/404 Not Found/);
  });
});

describe("errors come from the client's own pipeline", () => {
  it("against a server that always answers 503, call listDatabases reports 3 attempts like db list, exit 1", async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(503, { "content-type": "application/json", "retry-after": "0" });
      response.end(JSON.stringify({ error: "down for maintenance" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const env = { UPSTASH_EMAIL: "dev@example.com", UPSTASH_API_KEY: "key-for-the-503-test" };
      for (const args of [
        ["call", "listDatabases"],
        ["db", "list"],
      ]) {
        const before = requests;
        const result = await runCli([...args, "--base-url", url], env);
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toMatch(/503 Service Unavailable: down for maintenance/);
        expect(result.stderr).toMatch(/status 503 · 3 attempts/);
        expect(requests - before).toBe(3);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
