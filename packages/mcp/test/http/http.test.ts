// Streamable HTTP: the SDK's client against the stateless transport on 127.0.0.1, and what it refuses.
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Backend } from "../../src/internal/backend.js";
import { serveHttp, type HttpOptions, type ServedHttp } from "../../src/internal/http.js";
import { createShared, type ServerSettings } from "../../src/internal/server.js";
import { credentialsEnv, missingAnnotations, textOf, useEmulator } from "../support/server.js";

const h = useEmulator();
let served: ServedHttp | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function serve(settings: ServerSettings = {}, options: HttpOptions = {}) {
  const backend = new Backend({
    env: credentialsEnv(h.emu),
    logs: { baseUrl: h.emu.url },
    management: { baseUrl: h.emu.url },
  });
  served = await serveHttp(createShared(backend), settings, { port: 0, ...options });
  return served;
}

async function connectHttp(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});

/** A raw POST of `initialize` with `headers`; resolves to the status. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

describe("Streamable HTTP", () => {
  it("listens on 127.0.0.1 by default and serves the tools with their annotations", async () => {
    const { url } = await serve();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connectHttp(url);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(missingAnnotations(tools)).toEqual([]);
      const teams = await client.callTool({ name: "list_teams", arguments: {} });
      expect(teams.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("refuses a foreign Origin (403) and a non-loopback Host (403); accepts a loopback Origin", async () => {
    const { url } = await serve();
    expect(await post(url, { origin: "https://evil.example" })).toBe(403);
    expect(await post(url, { host: "evil.example" })).toBe(403);
    expect(await post(url, { origin: "http://localhost:3000" })).toBe(200);
    expect(await post(url, {})).toBe(200);
    expect(h.emu.requests()).toEqual([]);
  });

  it("an --allowed-origin is accepted", async () => {
    const { url } = await serve({}, { allowedOrigins: ["https://app.example"] });
    expect(await post(url, { origin: "https://app.example" })).toBe(200);
    expect(await post(url, { origin: "https://other.example" })).toBe(403);
  });

  it("beyond loopback: refuses to start without a token, and asks every request for it", async () => {
    await expect(serve({}, { host: "0.0.0.0" })).rejects.toThrow(/needs a bearer token/);
    const { url } = await serve({}, { host: "0.0.0.0", token: "s3cret-token" });
    const local = url.replace("0.0.0.0", "127.0.0.1");
    expect(await post(local, {})).toBe(401);
    expect(await post(local, { authorization: "Bearer wrong-token!" })).toBe(401);
    expect(await post(local, { authorization: "Bearer s3cret-token" })).toBe(200);
  });

  it("stateless: a confirmation token issued by one request is redeemed by another, sending exactly 1 request", async () => {
    const db = (await h.m.request("createDatabase", {
      body: { database_name: "h", primary_region: "us-east-1", platform: "aws" },
    } as never)) as { database_id: string };
    const { url } = await serve({ allowWrites: true });
    const client = await connectHttp(url);
    try {
      const first = await client.callTool({
        name: "delete_database",
        arguments: { id: db.database_id },
      });
      const token = (
        first.structuredContent as { confirmation_required: { confirmation_token: string } }
      ).confirmation_required.confirmation_token;
      const deletes = () =>
        h.emu.requests().filter((r) => r.operationId === "deleteDatabase").length;
      expect(deletes()).toBe(0);
      const sent = await client.callTool({
        name: "delete_database",
        arguments: { id: db.database_id, confirmation_token: token },
      });
      expect(textOf(sent)).toBe("OK");
      expect(deletes()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("bounds every request body: a chunked POST over --max-body-bytes gets 413, and the server stays up", async () => {
    const { url } = await serve({}, { maxBodyBytes: 4096 });
    const answer = await new Promise<{ status: number; body: string; sent: number }>(
      (resolve, reject) => {
        // No Content-Length: the body is chunked, 64 chunks of 1 KiB (16 times the bound).
        const req = httpRequest(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        });
        let sent = 0;
        req.on("response", (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sent }));
        });
        // The server closes the connection after its answer; a write after that fails.
        req.on("error", (error) => (sent > 4096 ? undefined : reject(error)));
        const chunk = Buffer.alloc(1024, 0x20);
        const write = () => {
          if (sent >= 64 * 1024 || req.destroyed) return req.end();
          sent += chunk.length;
          req.write(chunk, () => setImmediate(write));
        };
        expect(req.getHeader("content-length")).toBeUndefined();
        write();
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("over 4096 bytes");
    // Still up: a whole session over the same server.
    expect(await post(url, {})).toBe(200);
    const client = await connectHttp(url);
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("a body within the bound that is not JSON gets a JSON-RPC parse error (400)", async () => {
    const { url } = await serve();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end("{not json");
    });
    expect(status).toBe(400);
  });
});
