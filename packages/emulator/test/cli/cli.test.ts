// The bin: start it on a free port, call it, stop it with SIGTERM, expect exit code 0.
import { spawn, spawnSync } from "node:child_process";
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
      const m = /^export QSTASH_URL=(\S+)$/m.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on("exit", () => reject(new Error(`exited early: ${out}`)));
  });
  expect(out).toContain("export QSTASH_TOKEN=cli-token");
  expect(out).toContain("export UPSTASH_EMAIL=a@x.io");
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

it("prints `export` lines a shell reads back as the exact URL and credentials, under the clients' names", async () => {
  const token = `it's"a"$HOME;token`;
  const child = spawn(
    process.execPath,
    [cli, "--port", "0", "--logs-token", token, "--account", "o'neil@x.io:k$y`1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (/^export UPSTASH_API_KEY=/m.test(out)) resolve();
    });
    child.on("exit", () => reject(new Error(`exited early: ${out}`)));
  });
  child.kill("SIGINT");
  expect(await exited).toBe(0);
  const url = /^Emulator listening on (\S+)$/m.exec(out)?.[1];
  const exports = out.split("\n").filter((line) => line.startsWith("export "));
  expect(exports.map((line) => /^export (\w+)=/.exec(line)?.[1])).toEqual([
    "QSTASH_URL",
    "QSTASH_TOKEN",
    "UPSTASH_API_URL",
    "UPSTASH_EMAIL",
    "UPSTASH_API_KEY",
  ]);
  const names = [
    "QSTASH_URL",
    "QSTASH_TOKEN",
    "UPSTASH_API_URL",
    "UPSTASH_EMAIL",
    "UPSTASH_API_KEY",
  ];
  const script = `${exports.join("\n")}\nexec "${process.execPath}" -e 'console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => process.env[n])))'`;
  const read = spawnSync("sh", ["-c", script], {
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
  expect(read.stderr).toBe("");
  expect(JSON.parse(read.stdout)).toEqual([url, token, url, "o'neil@x.io", "k$y`1"]);
});
