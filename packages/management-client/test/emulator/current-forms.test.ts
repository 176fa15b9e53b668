import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createLogsClient } from "@api-clients/logs-client";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManagementClient, ValidationError } from "../../src/index.js";

// The request forms of the services' current reference, and the seed's, through the clients against
// the emulator (which validates every request from the same specs).
let emu: Emulator;
const ACCOUNT = { email: "forms@example.com", apiKey: "forms-key" };
beforeAll(async () => {
  emu = await startEmulator({ port: 0, accounts: [ACCOUNT], seedLogs: 0 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const management = (baseUrl = emu.url) => createManagementClient({ ...ACCOUNT, baseUrl });

describe("current and seed forms, end to end", () => {
  it("databases.create with database_name, platform, ap-south-1, plan, budget, eviction", async () => {
    const db = await management().databases.create({
      database_name: "current",
      platform: "aws",
      primary_region: "ap-south-1",
      plan: "payg",
      budget: 50,
      eviction: true,
    });
    expect(db).toMatchObject({ database_name: "current", primary_region: "ap-south-1" });
  });

  it("databases.create with the seed's name, region global and primary_region", async () => {
    const db = await management().databases.create({
      name: "seed",
      region: "global",
      primary_region: "us-east-1",
    });
    expect(db).toMatchObject({ database_name: "seed", region: "global" });
  });

  it("updateRegions with ap-northeast-1 and us-east-2", async () => {
    const m = management();
    const db = await m.databases.create({ database_name: "r", primary_region: "eu-west-1" });
    await m.databases.updateRegions(db.database_id!, {
      read_regions: ["ap-northeast-1", "us-east-2"],
    });
    expect((await m.databases.get(db.database_id!)).read_regions).toEqual([
      "ap-northeast-1",
      "us-east-2",
    ]);
  });

  it("vector.create with a hybrid index, BM25, us-central1 and the paid plan", async () => {
    const index = await management().vector.create({
      name: "hybrid",
      region: "us-central1",
      similarity_function: "EUCLIDEAN",
      dimension_count: 1024,
      index_type: "HYBRID",
      embedding_model: "BGE_M3",
      sparse_embedding_model: "BM25",
      type: "paid",
    });
    expect(index).toMatchObject({ index_type: "HYBRID", region: "us-central1" });
  });

  it("logs.list with repeated label and url, flowControlKey and messageIds", async () => {
    const now = Date.now();
    const entry = (messageId: string, extra: object) => ({
      time: now,
      messageId,
      state: "DELIVERED",
      url: "https://a.example/x",
      ...extra,
    });
    emu.logs.append([
      entry("m1", { label: "a", flowControlKey: "k" }),
      entry("m2", { label: "b", flowControlKey: "k", url: "https://b.example/y" }),
      entry("m3", { label: "c", flowControlKey: "k" }),
      entry("m4", { label: "a", flowControlKey: "other" }),
    ]);
    const logs = createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url });
    const page = await logs.list({
      label: ["a", "b"],
      url: ["https://a.example/x", "https://b.example/y"],
      flowControlKey: "k",
      messageIds: ["m1", "m2", "m3"],
    });
    expect(page.events.map((e) => e.messageId).sort()).toEqual(["m1", "m2"]);
  });
});

describe("refused before any request, and never stricter than the service", () => {
  it.each([
    ["count 0", () => createLogsClient({ token: "t", baseUrl: emu.url }).list({ count: 0 })],
    ["count 1001", () => createLogsClient({ token: "t", baseUrl: emu.url }).list({ count: 1001 })],
    [
      "primary_region inside read_regions",
      () =>
        management().databases.create({
          database_name: "x",
          primary_region: "us-east-1",
          read_regions: ["us-east-1"],
        }),
    ],
    [
      "a numeric database_name",
      () =>
        management().databases.create({
          database_name: 42 as unknown as string,
          primary_region: "us-east-1",
        }),
    ],
  ])("%s is a ValidationError", async (_name, call) => {
    await expect(call()).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("enableAutoUpgrade is idempotent for real", () => {
  it("twice in a row resolves both times (the second answer is 'already enabled')", async () => {
    const m = management();
    const db = await m.databases.create({ database_name: "u", primary_region: "us-east-1" });
    await expect(m.databases.enableAutoUpgrade(db.database_id!)).resolves.toBeUndefined();
    await expect(m.databases.enableAutoUpgrade(db.database_id!)).resolves.toBeUndefined();
    await expect(m.databases.disableAutoUpgrade(db.database_id!)).resolves.toBeUndefined();
    await expect(m.databases.disableAutoUpgrade(db.database_id!)).resolves.toBeUndefined();
  });

  it("resolves when the first response is lost after the emulator applied it", async () => {
    const m = management();
    const db = await m.databases.create({ database_name: "lost", primary_region: "us-east-1" });
    // A proxy that forwards every request, but drops the connection instead of relaying the first
    // enable-autoupgrade answer: the change is applied, the client never hears of it, and retries.
    const target = new URL(emu.url);
    let dropped = 0;
    const proxy: Server = createServer((req, res) => {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          if (req.url?.includes("enable-autoupgrade") && dropped === 0) {
            dropped += 1;
            answer.resume();
            answer.on("end", () => res.socket?.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const viaProxy = management(`http://127.0.0.1:${port}`);
      await expect(viaProxy.databases.enableAutoUpgrade(db.database_id!)).resolves.toBeUndefined();
      expect(dropped).toBe(1);
      expect(await m.databases.get(db.database_id!)).toMatchObject({ auto_upgrade: true });
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
