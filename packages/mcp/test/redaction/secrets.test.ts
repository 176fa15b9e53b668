// No credential in any result or error, across every tool; secret fields masked unless --reveal-secrets.
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toolSpecs } from "../../src/generated/tools.js";
import { Backend } from "../../src/internal/backend.js";
import { serveHttp } from "../../src/internal/http.js";
import { createShared } from "../../src/internal/server.js";
import { connect, textOf, useEmulator } from "../support/server.js";

const h = useEmulator({ seedLogs: 200 });

/** Arguments for a tool: every required path parameter set to `id`, a body of `{}` when required. */
function argsFor(name: string, id: string): Record<string, unknown> {
  const spec = toolSpecs.find((t) => t.name === name);
  if (spec === undefined) return name === "message_history" ? { messageId: id } : {};
  const args: Record<string, unknown> = {};
  for (const p of spec.inputs) if (p.in === "path") args[p.name] = id;
  if ((spec.inputSchema["required"] as string[] | undefined)?.includes("body")) args["body"] = {};
  return args;
}

describe("no secret reaches the model", () => {
  it("0 credentials in any result or error across every tool", async () => {
    const db = (await h.m.request("createDatabase", {
      body: { database_name: "s", primary_region: "us-east-1", platform: "aws" },
    } as never)) as { database_id: string; password: string; rest_token: string };
    const secrets = [
      h.emu.credentials.logsToken,
      h.emu.credentials.apiKey,
      Buffer.from(`${h.emu.credentials.email}:${h.emu.credentials.apiKey}`).toString("base64"),
      db.password,
      db.rest_token,
    ];
    const client = await connect(h.emu, ["--allow-writes"]);
    const leaks: string[] = [];
    let calls = 0;
    try {
      for (const { name } of (await client.listTools()).tools) {
        for (const id of [db.database_id, "no-such-id"]) {
          const result = await client.callTool({ name, arguments: argsFor(name, id) });
          calls += 1;
          const text = JSON.stringify(result);
          for (const secret of secrets) if (text.includes(secret)) leaks.push(`${name}(${id})`);
        }
      }
    } finally {
      await client.close();
    }
    expect(calls).toBe(124);
    expect(leaks).toEqual([]);
  });

  it("secret fields read *** by default and as they are with --reveal-secrets", async () => {
    const db = (await h.m.request("createDatabase", {
      body: { database_name: "s", primary_region: "us-east-1", platform: "aws" },
    } as never)) as { database_id: string; password: string };
    for (const [flags, want] of [
      [[], "***"],
      [["--reveal-secrets"], db.password],
    ] as const) {
      const client = await connect(h.emu, flags);
      try {
        const result = await client.callTool({
          name: "get_database",
          arguments: { id: db.database_id },
        });
        expect((JSON.parse(textOf(result)) as { password: string }).password).toBe(want);
        expect((result.structuredContent as { password: string }).password).toBe(want);
      } finally {
        await client.close();
      }
    }
  });
});

// A service that echoes the credentials it receives in every answer: the Authorization header, the
// key or token in it, and the key written with JSON escapes; as an object, as a list, or in a 400.
const TOKEN = "qstash-token-7Hq2Zx9Lm4Pw8Rt1";
const EMAIL = "ops@example.com";
const KEY = "mgmt+key/9f8e7d6c5b4a3210";
const FORMS = [
  TOKEN,
  KEY,
  encodeURIComponent(KEY),
  Buffer.from(`${EMAIL}:${KEY}`).toString("base64"),
];

function echoOf(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? "";
  const secret = auth.startsWith("Basic ")
    ? Buffer.from(auth.slice(6), "base64").toString().split(":")[1]!
    : auth.slice(7);
  const escaped = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `{"authorization":${JSON.stringify(auth)},"secret":${JSON.stringify(secret)},"escaped":"${escaped.join("")}","message":"you sent ${secret} in ${req.url}"}`;
}

describe("0 credentials in any result or error, against a service that echoes them", () => {
  it.each(["object", "list", "error"] as const)(
    "every tool, each answer a %s holding the credentials",
    async (shape) => {
      let received = 0;
      const echo = createHttpServer((req, res) => {
        received += 1;
        req.resume();
        const one = echoOf(req);
        res.writeHead(shape === "error" ? 400 : 200, { "content-type": "application/json" });
        res.end(shape === "list" ? `[${one}]` : one);
      });
      await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const backend = new Backend({
        env: {},
        logs: { baseUrl: url, token: TOKEN, maxRetries: 0 },
        management: { baseUrl: url, email: EMAIL, apiKey: KEY, maxRetries: 0 },
      });
      const served = await serveHttp(createShared(backend), { allowWrites: true }, { port: 0 });
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      const leaks: string[] = [];
      let calls = 0;
      let masked = 0;
      try {
        for (const { name } of (await client.listTools()).tools) {
          const args = argsFor(name, "db-1");
          let result = await client.callTool({ name, arguments: args });
          const preview = result.structuredContent as
            { confirmation_required?: { confirmation_token: string } } | undefined;
          const results = [result];
          if (preview?.confirmation_required !== undefined) {
            const confirmation_token = preview.confirmation_required.confirmation_token;
            result = await client.callTool({ name, arguments: { ...args, confirmation_token } });
            results.push(result);
          }
          for (const r of results) {
            calls += 1;
            const text = JSON.stringify(r);
            if (text.includes("[REDACTED]")) masked += 1;
            for (const form of FORMS) if (text.includes(form)) leaks.push(`${name}: ${form}`);
          }
        }
      } finally {
        await client.close();
        await served.close();
        await new Promise((resolve) => echo.close(resolve));
      }
      expect(leaks).toEqual([]);
      // Not vacuous: most tools reached the service, and its echo came back masked.
      expect(calls).toBeGreaterThanOrEqual(62);
      expect(received).toBeGreaterThan(40);
      expect(masked).toBeGreaterThanOrEqual(20);
    },
  );
});
