// Issue #12 item 12: the admin API refuses what a web page on another site (or a DNS-rebinding page)
// could send: non-JSON writes, foreign origins, Host names that are not loopback or configured.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { start } from "../helpers.js";
import { errorText, JSON_HEADERS, send } from "../raw-http.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 10 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

/** A rule whose effect shows whether a reset (or any write) went through. */
const marker = (): void => emu.faults.add({ path: "/nowhere", status: 418, times: "always" });

describe("writes must be JSON (a page can post text/plain or a form without a preflight)", () => {
  it.each([
    ["text/plain", "text/plain;charset=UTF-8"],
    ["a form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["no content type", undefined],
  ])("answers 415 to a POST sent as %s and changes nothing", async (_name, type) => {
    marker();
    const headers: Record<string, string> = type ? { "content-type": type } : {};
    const a = await send(emu.url, "/__emulator/reset", { method: "POST", headers, body: "{}" });
    expect(a.status).toBe(415);
    expect(errorText(a)).toMatch(/^content-type: .*application\/json/);
    expect(emu.faults.size).toBe(1);
  });

  it("answers 415 to a DELETE without the JSON content type", async () => {
    marker();
    const a = await send(emu.url, "/__emulator/faults", { method: "DELETE" });
    expect(a.status).toBe(415);
    expect(emu.faults.size).toBe(1);
  });

  it.each(["application/json", "Application/JSON; charset=utf-8"])("accepts %s", async (type) => {
    marker();
    const a = await send(emu.url, "/__emulator/reset", {
      method: "POST",
      headers: { "content-type": type },
    });
    expect(a.status).toBe(200);
    expect(emu.faults.size).toBe(0);
  });

  it("reads need no content type", async () => {
    expect((await send(emu.url, "/__emulator/health")).status).toBe(200);
  });
});

describe("Origin: pages of other sites are refused, loopback pages and no Origin are not", () => {
  it.each(["http://evil.example", "https://evil.example:8443", "null", "not a url", "file://"])(
    "answers 403 to Origin %s, without any CORS header",
    async (origin) => {
      marker();
      const a = await send(emu.url, "/__emulator/reset", {
        method: "POST",
        headers: { ...JSON_HEADERS, origin },
      });
      expect(a.status).toBe(403);
      expect(errorText(a)).toMatch(/^origin: /);
      expect(a.headers["access-control-allow-origin"]).toBeUndefined();
      expect(emu.faults.size).toBe(1);
    },
  );

  it("refuses a foreign origin on reads too (the snapshot holds passwords)", async () => {
    const a = await send(emu.url, "/__emulator/snapshot", {
      headers: { origin: "http://evil.example" },
    });
    expect(a.status).toBe(403);
    expect(a.text).not.toContain("password");
  });

  it.each([
    "http://localhost:3000",
    "http://127.0.0.1:5173",
    "https://127.1.2.3",
    "http://[::1]:8080",
  ])("accepts Origin %s and echoes it (never *)", async (origin) => {
    marker();
    const a = await send(emu.url, "/__emulator/reset", {
      method: "POST",
      headers: { ...JSON_HEADERS, origin },
    });
    expect(a.status).toBe(200);
    expect(a.headers["access-control-allow-origin"]).toBe(origin);
    expect(emu.faults.size).toBe(0);
  });

  it("answers a preflight from a loopback page with that origin, and one from elsewhere with 403", async () => {
    const ok = await send(emu.url, "/__emulator/faults", {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:3000",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers["access-control-allow-origin"]).toBe("http://localhost:3000");
    expect(ok.headers["access-control-allow-headers"]).toContain("content-type");

    const evil = await send(emu.url, "/__emulator/faults", {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("Host: DNS rebinding (a foreign name resolving to 127.0.0.1) is refused", () => {
  const port = (): string => new URL(emu.url).port;

  it.each(["evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "10.0.0.1"])(
    "answers 403 to Host %s and leaks no snapshot",
    async (name) => {
      const created = await send(emu.url, "/v2/redis/database", {
        method: "POST",
        headers: {
          ...JSON_HEADERS,
          authorization: `Basic ${Buffer.from("alice@example.com:alice-key").toString("base64")}`,
        },
        body: JSON.stringify({ name: "db", region: "eu-central-1" }),
      });
      expect(created.status).toBe(200);
      // Addressed as localhost, the snapshot does hold the password.
      expect((await send(emu.url, "/__emulator/snapshot")).text).toContain('"password"');
      const a = await send(emu.url, "/__emulator/snapshot", {
        headers: { host: `${name}:${port()}` },
      });
      expect(a.status).toBe(403);
      expect(errorText(a)).toMatch(/^host: /);
      expect(a.text).not.toContain("password");
    },
  );

  it.each(["localhost", "LOCALHOST", "127.0.0.1", "127.9.8.7", "[::1]"])(
    "accepts Host %s",
    async (name) => {
      const a = await send(emu.url, "/__emulator/snapshot", {
        headers: { host: `${name}:${port()}` },
      });
      expect(a.status).toBe(200);
    },
  );

  it("does not check Host on the two APIs (a container may reach them by any name)", async () => {
    const a = await send(emu.url, "/v2/logs?count=1", {
      headers: { host: "emulator:8787", authorization: "Bearer test-logs-token" },
    });
    expect(a.status).toBe(200);
  });
});

describe("configured hosts and origins", () => {
  it("accepts the names and origins given in adminHosts and adminOrigins, and only those", async () => {
    const custom = await start({
      adminHosts: ["emulator.test"],
      adminOrigins: ["https://app.example.com"],
    });
    try {
      const port = new URL(custom.url).port;
      const host = await send(custom.url, "/__emulator/health", {
        headers: { host: `emulator.test:${port}` },
      });
      expect(host.status).toBe(200);
      const other = await send(custom.url, "/__emulator/health", {
        headers: { host: `other.test:${port}` },
      });
      expect(other.status).toBe(403);
      const origin = await send(custom.url, "/__emulator/faults", {
        method: "POST",
        headers: { ...JSON_HEADERS, origin: "https://app.example.com" },
        body: JSON.stringify({ path: "/x", status: 500 }),
      });
      expect(origin.status).toBe(200);
      expect(origin.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      const sibling = await send(custom.url, "/__emulator/health", {
        headers: { origin: "https://evil.example.com" },
      });
      expect(sibling.status).toBe(403);
    } finally {
      await custom.close();
    }
  });

  it("refuses invalid settings at start", async () => {
    await expect(start({ adminHosts: ["emulator.test:8787"] })).rejects.toThrow(/^adminHosts: /);
    await expect(start({ adminOrigins: ["app.example.com"] })).rejects.toThrow(/^adminOrigins: /);
  });
});
