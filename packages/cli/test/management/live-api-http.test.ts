// The newer management groups against a small node:http server that answers like the reference: each
// list command sends the reference's request (path, Basic auth) and prints the array as sent. The
// emulator-backed tests of the same commands are in live-api.test.ts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

const ANSWERS: Record<string, unknown[]> = {
  "/v2/search": [{ id: "s-1", name: "docs", region: "eu-west-1", type: "payg", creation_time: 1 }],
  "/v2/qstash/users": [
    { id: "q-1", region: "eu-central-1", type: "free", state: "active", budget: 0 },
    { id: "q-2", region: "us-east-1", type: "free", state: "active", budget: 0 },
  ],
  "/auditlogs": [
    { log_id: "a-1", actor: "dev@example.com", timestamp: 1, action_string: "Create" },
  ],
};

const seen: string[] = [];
const server = createServer((request, response) => {
  seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""}`);
  const body = ANSWERS[request.url ?? ""];
  response.writeHead(body ? 200 : 404, { "content-type": "application/json" });
  response.end(JSON.stringify(body ?? { error: "not found" }));
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const env = { UPSTASH_EMAIL: "dev@example.com", UPSTASH_API_KEY: "key-of-the-live-api-test" };
const basic = `Basic ${Buffer.from(`${env.UPSTASH_EMAIL}:${env.UPSTASH_API_KEY}`).toString("base64")}`;

describe("search, qstash and audit-log --json (node:http server)", () => {
  it.each([
    [["search", "list"], "/v2/search"],
    [["qstash", "list"], "/v2/qstash/users"],
    [["audit-log"], "/auditlogs"],
  ])("%j --json prints the array the server sent to GET %s", async (args, path) => {
    const result = await runCli([...args, "--json", "--base-url", url], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(ANSWERS[path]);
    expect(seen.at(-1)).toBe(`GET ${path} ${basic}`);
  });
});
