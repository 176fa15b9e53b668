// The CLI flags of the browser protections: --cors-origin, --admin-host, --admin-origin; and invalid
// accounts or origins end with exit code 2 and the usage, without printing the key.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { send } from "../raw-http.js";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

/** Runs the CLI until it prints its URL; returns the URL and a stop function. */
async function run(args: string[]): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [cli, "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  return {
    url,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

async function fails(args: string[]): Promise<{ code: number | null; err: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, err };
}

it("takes the CORS origin, admin hosts and admin origins from flags", async () => {
  const emu = await run([
    "--cors-origin",
    "http://app.test:3000",
    "--admin-host",
    "emulator.test",
    "--admin-origin",
    "https://tools.example.com",
  ]);
  try {
    const port = new URL(emu.url).port;
    const logs = await send(emu.url, "/v2/logs", { headers: { origin: "http://app.test:3000" } });
    expect(logs.status).toBe(401);
    expect(logs.headers["access-control-allow-origin"]).toBe("http://app.test:3000");
    const host = await send(emu.url, "/__emulator/health", {
      headers: { host: `emulator.test:${port}`, origin: "https://tools.example.com" },
    });
    expect(host.status).toBe(200);
    const other = await send(emu.url, "/__emulator/health", {
      headers: { host: `other.test:${port}` },
    });
    expect(other.status).toBe(403);
  } finally {
    expect(await emu.stop()).toBe(0);
  }
});

it("--cors-origin none sends no CORS headers", async () => {
  const emu = await run(["--cors-origin", "none"]);
  try {
    const logs = await send(emu.url, "/v2/logs", { headers: { origin: "http://app.test" } });
    expect(logs.headers["access-control-allow-origin"]).toBeUndefined();
  } finally {
    await emu.stop();
  }
});

it.each([
  [["--account", "a@x.io:"], /--account must be email:apiKey/],
  [["--account", "a b@x.io:secret-key"], /accounts\[0\]\.email: /],
  [["--cors-origin", "not-an-origin"], /corsOrigin: /],
  [["--admin-host", "emulator.test:80"], /adminHosts: /],
])("refuses %j with exit code 2 and the usage", async (args, message) => {
  const { code, err } = await fails(args);
  expect(code).toBe(2);
  expect(err).toMatch(message);
  expect(err).toMatch(/Usage:/);
  expect(err).not.toContain("secret-key");
});
