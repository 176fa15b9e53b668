// The CLI masks only secrets: a token or API key as a whole value, and only when it has at least 8
// characters (core's redaction). A short demo key and the account e-mail are not secrets.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

const EMAIL = "dev@example.com";
const KEY = "key";
const TOKEN = "tok_0123456789abcdefghijklmnopqrs"; // 32 characters

let emu: Emulator;
let echo: Server;
let echoUrl: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, accounts: [{ email: EMAIL, apiKey: KEY }] });
  // A server that echoes the credential it was sent in a 401 body.
  echo = createServer((req, res) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: `invalid token: ${String(req.headers.authorization)}` }));
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emu.close();
  await new Promise((resolve) => echo.close(resolve));
});

const masked = /\[REDACTED\]|\*\*\*/;

describe("masking only secrets", () => {
  it(`with ${EMAIL} / ${KEY}, no word of the output is masked (names holding "key", the e-mail)`, async () => {
    const env = { UPSTASH_EMAIL: EMAIL, UPSTASH_API_KEY: KEY };
    const base = ["--base-url", emu.url];
    const created = await runCli(
      ["db", "create", "--name", "monkey-keys-db", "--primary-region", "us-east-1", ...base],
      env,
    );
    expect(created.code).toBe(0);
    const listed = await runCli(["db", "list", "--json", "--verbose", ...base], env);
    expect(listed.code).toBe(0);
    // The database's own password is a secret the table hides on purpose; nothing else is masked.
    const all = (created.stdout + created.stderr + listed.stdout + listed.stderr).replaceAll(
      "*** (--show-secrets to show)",
      "",
    );
    expect(listed.stdout).toContain("monkey-keys-db");
    expect(listed.stderr).toContain(emu.url);
    expect(all).not.toMatch(masked);
  });

  it("a 32-character token echoed by a server is masked", async () => {
    const result = await runCli(["logs", "list", "--base-url", echoUrl, "--verbose"], {
      QSTASH_TOKEN: TOKEN,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("invalid token: [REDACTED]");
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  });
});

describe("no secret on stdout, whatever field holds it", () => {
  const API_KEY = "0123456789abcdef0123456789abcdef";
  let leaky: Server;
  let leakyUrl: string;
  beforeAll(async () => {
    // A server whose success answers echo the Authorization header and the key in fields named like
    // nothing secret.
    leaky = createServer((req, res) => {
      const authorization = String(req.headers.authorization);
      const database = {
        database_id: "db-1",
        database_name: "orders",
        note: authorization,
        owner: authorization.slice("Basic ".length),
        comment: `key ${API_KEY} here`,
      };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(req.url?.endsWith("/databases") ? [database] : database));
    });
    await new Promise<void>((resolve) => leaky.listen(0, "127.0.0.1", resolve));
    leakyUrl = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => leaky.close(resolve)));

  const basic = Buffer.from(`${EMAIL}:${API_KEY}`).toString("base64");
  it.each([
    ["db get", ["db", "get", "db-1"]],
    ["db get --json", ["db", "get", "db-1", "--json"]],
    ["db reset-password", ["db", "reset-password", "db-1", "--yes"]],
    ["db reset-password --json", ["db", "reset-password", "db-1", "--yes", "--json"]],
    ["db list", ["db", "list"]],
    ["db list --json", ["db", "list", "--json"]],
    ["call getDatabase", ["call", "getDatabase", "--param", "id=db-1"]],
  ])("%s masks the echoed credential", async (_name, args) => {
    const result = await runCli([...args, "--base-url", leakyUrl], {
      UPSTASH_EMAIL: EMAIL,
      UPSTASH_API_KEY: API_KEY,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("orders");
    // The list table shows none of the echoing fields; every other view shows them masked.
    if (args.join(" ") !== "db list") expect(result.stdout).toMatch(masked);
    expect(result.stdout + result.stderr).not.toContain(API_KEY);
    expect(result.stdout + result.stderr).not.toContain(basic);
  });
});
