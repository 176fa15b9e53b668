import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManagementClient, NotFoundError } from "../../src/index.js";
import type { ManagementClient, LogEvent } from "../../src/index.js";
import { clientFor } from "../support/client.js";
import { API_KEY, AUTHORIZATION, EMAIL } from "../support/fixtures.js";
import { startRecordingServer } from "../support/recording-server.js";
import type { RecordingServer } from "../support/recording-server.js";

let server: RecordingServer;
let m: ManagementClient;
const events: LogEvent[] = [];

beforeAll(async () => {
  server = await startRecordingServer();
  m = clientFor(server, { logger: (event) => events.push(event), maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("ids are percent-encoded into their own path segment", () => {
  const ids: [string, string, string][] = [
    ["../teams", "/v2/redis/database/..%2Fteams", "databases.get"],
    ["a/b?c#d", "/v2/redis/database/a%2Fb%3Fc%23d", "databases.get"],
    ["spaced id", "/v2/redis/database/spaced%20id", "databases.get"],
    ["ünïcode", `/v2/redis/database/${encodeURIComponent("ünïcode")}`, "databases.get"],
  ];

  it.each(ids)("%s", async (id, path) => {
    server.reply({ body: { database_id: id, database_name: "n" } });
    await m.databases.get(id);
    expect(server.requests[0]?.path).toBe(path);
  });

  it("both ids of a backup deletion stay in their segments", async () => {
    await m.backups.delete("../x", "y/../../z");
    expect(server.requests[0]?.path).toBe("/v2/redis/delete-backup/..%2Fx/y%2F..%2F..%2Fz");
  });

  it("the team id of listMembers stays in its segment", async () => {
    server.reply({ body: [] });
    await m.teams.listMembers("../../v2/redis/databases");
    expect(server.requests[0]?.path).toBe("/v2/teams/..%2F..%2Fv2%2Fredis%2Fdatabases");
  });
});

describe("credentials", () => {
  it("Basic auth encodes non-ASCII e-mail and key as UTF-8", async () => {
    const client = createManagementClient({
      email: "jürgen@exämple.com",
      apiKey: "kéy€",
      baseUrl: server.url,
    });
    server.reply({ body: [] });
    await client.teams.list();
    const header = server.requests[0]?.headers.authorization ?? "";
    expect(header.startsWith("Basic ")).toBe(true);
    expect(Buffer.from(header.slice(6), "base64").toString("utf8")).toBe("jürgen@exämple.com:kéy€");
  });

  it("a user header cannot override the Authorization header", async () => {
    const client = clientFor(server, { headers: { authorization: "Bearer stolen" } });
    server.reply({ body: [] });
    await client.teams.list();
    expect(server.requests[0]?.headers.authorization).toBe(AUTHORIZATION);
  });

  it("util.inspect and JSON show the base URL and never the API key or e-mail", () => {
    for (const shown of [inspect(m, { depth: 10, showHidden: true }), JSON.stringify(m)]) {
      expect(shown).toContain(server.url);
      expect(shown).not.toContain(API_KEY);
      expect(shown).not.toContain(EMAIL);
      expect(shown).not.toContain(AUTHORIZATION.slice(6));
    }
    expect(inspect(m.databases, { depth: 10 })).not.toContain(API_KEY);
  });

  it("errors and log events never carry the credentials", async () => {
    server.reply({ status: 404, body: { error: "not found" } });
    const error: unknown = await m.databases.get("db").catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(NotFoundError);
    const texts = [
      String(error),
      inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(error),
      JSON.stringify(events),
    ];
    for (const text of texts) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(AUTHORIZATION.slice(6));
    }
    expect(events.length).toBeGreaterThan(0);
  });

  it.each([
    ["a 401 body, \\u-escaped", 401],
    ["a 2xx body of the wrong shape, \\u-escaped", 200],
  ])(
    "the key and the Basic value echoed in %s and a header are redacted (issue #24)",
    async (_name, status) => {
      const basic = AUTHORIZATION.slice("Basic ".length);
      const escaped = (text: string) =>
        [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
      server.reply({
        status,
        headers: { "content-type": "application/json", "x-echo": `${basic} ${API_KEY}` },
        body: `[{"error":"bad ${escaped(basic)} ${escaped(API_KEY)}"}]`,
      });
      events.length = 0;
      const error: unknown = await m.databases.get("db").catch((reason: unknown) => reason);
      expect((error as { status?: number }).status).toBe(status);
      const texts = [
        String(error),
        inspect(error, { depth: 10, showHidden: true }),
        JSON.stringify(error),
        JSON.stringify((error as { body?: unknown }).body),
        [...((error as { headers: Headers }).headers ?? [])].join(" "),
        JSON.stringify(events),
      ];
      for (const text of texts) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(basic);
      }
      expect(JSON.stringify((error as { body?: unknown }).body)).toContain("[REDACTED]");
    },
  );

  it("validation errors at construction do not echo the key", () => {
    let error: unknown;
    try {
      createManagementClient({ email: "", apiKey: API_KEY });
    } catch (caught) {
      error = caught;
    }
    expect(inspect(error)).not.toContain(API_KEY);
  });

  it("a plain-http base URL on a non-loopback host is refused", () => {
    expect(() =>
      createManagementClient({ email: EMAIL, apiKey: API_KEY, baseUrl: "http://api.example.com" }),
    ).toThrow(/baseUrl/);
  });
});
