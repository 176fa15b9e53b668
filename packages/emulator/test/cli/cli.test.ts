// The bin: start it on a free port, call it, stop it with SIGTERM, expect exit code 0.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

it("starts, serves both APIs with the printed credentials, and exits 0 on SIGTERM", async () => {
  const child = spawn(
    process.execPath,
    [
      cli,
      "--port",
      "0",
      "--seed-logs",
      "50",
      "--logs-token",
      "cli-token",
      "--account",
      "a@x.io:key-a",
      "--account",
      "b@x.io:key-b",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^URL=(\S+)$/m.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on("exit", () => reject(new Error(`exited early: ${out}`)));
  });
  expect(out).toContain("LOGS_TOKEN=cli-token");
  expect(out).toContain("MANAGEMENT_EMAIL=a@x.io");
  expect(out).toContain("b@x.io:key-b");

  const logs = await fetch(`${url}/v2/logs?count=10`, {
    headers: { authorization: "Bearer cli-token" },
  });
  expect(logs.status).toBe(200);
  expect(((await logs.json()) as { events: unknown[] }).events).toHaveLength(10);
  const b = await fetch(`${url}/v2/redis/databases`, {
    headers: { authorization: `Basic ${Buffer.from("b@x.io:key-b").toString("base64")}` },
  });
  expect(await b.json()).toEqual([]);

  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

it("rejects a bad flag with exit code 2 and the usage", async () => {
  const child = spawn(process.execPath, [cli, "--account", "nocolon"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code).toBe(2);
  expect(err).toMatch(/--account must be email:apiKey/);
  expect(err).toMatch(/Usage:/);
});
