// Issue 32, item 7: `db get` shows every field the server sent, one named `__proto__` included (a
// plain object would take it as its prototype and hide it).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/index.js";

// The body as the server sends it: `__proto__` is an own key of the parsed JSON.
const BODY =
  '{"database_id":"db-1","database_name":"cache","__proto__":{"polluted":"yes"},"state":"active"}';
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function cli(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const env = { UPSTASH_EMAIL: "a@example.com", UPSTASH_API_KEY: "key", NO_COLOR: "1" };
  const code = await run([...args, "--base-url", url], { stdout, stderr, env });
  return { code, stdout: out, stderr: err };
}

describe("db get and a field named __proto__", () => {
  it("the table shows it as a field, with its value", async () => {
    const result = await cli(["db", "get", "db-1"]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n").map((line) => line.trimEnd());
    expect(lines).toContain('__proto__      {"polluted":"yes"}');
    expect(lines.filter((line) => /^\S/.test(line)).map((line) => line.split(/\s+/)[0])).toEqual([
      "database_id",
      "database_name",
      "__proto__",
      "state",
    ]);
  });

  it("--json keeps it too", async () => {
    const result = await cli(["db", "get", "db-1", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(Object.keys(JSON.parse(result.stdout) as object)).toContain("__proto__");
  });
});
