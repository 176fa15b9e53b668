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
