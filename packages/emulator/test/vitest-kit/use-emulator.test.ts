// `@api-clients/emulator/vitest` as a consumer uses it: the project's global setup started one
// emulator over HTTP; useEmulator() gives its URL and credentials and resets it before each test.
// (Plain fetch: the clients depend on this package for their tests, not the other way round.)
import { describe, expect, inject, it } from "vitest";
import { useEmulator } from "../../src/vitest.js";

const emu = useEmulator();
const basic = () =>
  `Basic ${Buffer.from(`${emu.credentials.email}:${emu.credentials.apiKey}`).toString("base64")}`;
const listLogs = () =>
  fetch(`${emu.url}/v2/logs?count=50`, {
    headers: { authorization: `Bearer ${emu.credentials.logsToken}` },
  });
const databases = async (): Promise<unknown[]> =>
  (await fetch(`${emu.url}/v2/redis/databases`, { headers: { authorization: basic() } })).json();

it("provides the URL of an emulator listening on 127.0.0.1, and its credentials", async () => {
  expect(inject("apiClientsEmulator")).toEqual({ url: emu.url, credentials: emu.credentials });
  expect(new URL(emu.url).hostname).toBe("127.0.0.1");
  const res = await listLogs();
  expect(res.status).toBe(200);
  expect(((await res.json()) as { events: unknown[] }).events).toHaveLength(30);
});

// The two tests run in order: the second sees none of the first's database, since each starts reset.
describe("reset before each test", () => {
  it("a test creates a database", async () => {
    const res = await fetch(`${emu.url}/v2/redis/database`, {
      method: "POST",
      headers: { authorization: basic(), "content-type": "application/json" },
      body: JSON.stringify({ name: "kept?", primary_region: "us-east-1" }),
    });
    expect(res.status).toBe(200);
    expect(await databases()).toHaveLength(1);
  });
  it("the next test starts without it", async () => {
    expect(await databases()).toEqual([]);
  });
});

it("starts a scenario over the admin API; reset ends it", async () => {
  await emu.scenario("daily-quota-exhausted", { times: "always" });
  for (let i = 0; i < 2; i++) {
    const res = await listLogs();
    expect(res.status).toBe(429);
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
  }
  await emu.reset();
  expect((await listLogs()).status).toBe(200);
});

it("refuses an unknown scenario, naming the status", async () => {
  await expect(emu.scenario("no-such" as never)).rejects.toThrow(
    "emulator POST /__emulator/scenarios: 400",
  );
});
